import * as z from '../zod.ts';

/**
 * A customer's http(s) URL (a webhook endpoint, a bridge): at most 2,048 characters, with a host.
 * Where it may point is checked when it is called (the outbound address guard), not here.
 */
export const httpUrl = (message: string) =>
  z.string().check(
    z.maxLength(2048),
    z.refine((value) => {
      try {
        const parsed = new URL(value);
        return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname !== '';
      } catch {
        return false;
      }
    }, message),
  );
