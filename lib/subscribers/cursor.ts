import { ValidationError } from '../errors.ts';

// List cursors are opaque to clients: the position of a subscriber in the list indexes
// (createdAt and _id for gsi1, subscriberId for gsi2), base64url-encoded. They hold no tenant
// ids: keys are rebuilt from the caller's scope, so a cursor can never reach another tenant.

export interface Position {
  createdAt: string;
  _id: string;
  subscriberId: string;
}

const MAX_PART_LENGTH = 512;

export function encodeCursor(p: Position): string {
  return Buffer.from(JSON.stringify([p.createdAt, p._id, p.subscriberId])).toString('base64url');
}

/** A cursor that was not made by encodeCursor is a 422 on its query parameter. */
export function decodeCursor(cursor: string, field: string): Position {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parts = undefined;
  }
  const valid =
    Array.isArray(parts) &&
    parts.length === 3 &&
    parts.every((part) => typeof part === 'string' && part.length > 0 && part.length <= MAX_PART_LENGTH);
  if (!valid) throw ValidationError.forField(field, `${field} is not a valid cursor`, cursor);
  const [createdAt, _id, subscriberId] = parts as [string, string, string];
  return { createdAt, _id, subscriberId };
}

export const positionOf = ({ createdAt, _id, subscriberId }: Position): Position => ({ createdAt, _id, subscriberId });
