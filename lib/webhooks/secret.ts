import { randomBytes } from 'node:crypto';

// An endpoint's signing secret, as Standard Webhooks (and Svix) write it: `whsec_` and 24 random
// bytes in base64, which the `standardwebhooks` and `svix` libraries take as they are.

const SECRET_PREFIX = 'whsec_';

export const newEndpointSecret = (): string => SECRET_PREFIX + randomBytes(24).toString('base64');
