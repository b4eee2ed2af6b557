import * as z from './zod.ts';

// Ids that clients choose (subscriberIds, topic keys): the reference's rule, letters, digits and
// `_ : . -`, or an email address; bounded far below DynamoDB's 2 KB partition-key limit.
const VALID_ID = /^[a-zA-Z0-9_:.-]+$/;
const EMAIL_LIKE_ID = /^\S+@\S+\.\S+$/;
export const MAX_EXTERNAL_ID_LENGTH = 256;

export function externalIdSchema(field: string) {
  return z.string().check(
    z.minLength(1, `${field} must not be empty`),
    z.maxLength(MAX_EXTERNAL_ID_LENGTH),
    z.refine(
      (id) => VALID_ID.test(id) || EMAIL_LIKE_ID.test(id),
      `${field} may only contain alphanumeric characters, -, _, :, . or be a valid email address`,
    ),
  );
}
