// The subscriber's profile fields: what create, PATCH and a trigger's `to` may set (schemas.ts
// has their shapes). Apart from the schemas so the pipeline's upsert does not need zod.

export const PROFILE_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'data'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
