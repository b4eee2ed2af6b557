import { httpUrl } from '../net/http-url.ts';

/** A bridge URL (a sync's, a trigger's): where it may point is checked at connect time (lib/net). */
export const bridgeUrl = httpUrl('bridgeUrl must be an http or https URL');
