import * as z from '../zod.ts';

// The public tracking routes take one path parameter, the token; any text is accepted here and a
// token that does not open is answered by the route's plain 404 page (lib/http/pages.ts).
export const trackingTokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(4096)) });
