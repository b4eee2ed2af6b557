import * as z from '../zod.ts';

/** A bridge URL: http(s) only, at most 2,048 characters; where it may point is checked at connect time (lib/net). */
export const bridgeUrl = z.string().check(
  z.maxLength(2048),
  z.refine((value) => {
    try {
      const parsed = new URL(value);
      return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname !== '';
    } catch {
      return false;
    }
  }, 'bridgeUrl must be an http or https URL'),
);
