import { createPrivateKey } from 'node:crypto';
import { callProvider } from '../http.ts';
import { signJwt } from '../jwt.ts';
import { ProviderError } from '../provider.ts';
import { cacheKey, cachedToken, forgetToken } from '../token-cache.ts';

// A Google OAuth2 access token for a service account (the JSON key file a Firebase project
// exports): an RS256-signed JWT grant is exchanged at the key's token_uri, and the token is
// reused until a minute before it expires.

const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const MARGIN_MS = 60_000;

export interface ServiceAccount {
  projectId: string;
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  tokenUri: string;
}

/** The service account of an integration's `serviceAccount` credential (the whole JSON file). */
export function parseServiceAccount(value: unknown): ServiceAccount {
  let json: Record<string, unknown>;
  try {
    json = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
  } catch {
    throw new ProviderError('The FCM service account (serviceAccount) is not valid JSON');
  }
  const text = (key: string) => (typeof json?.[key] === 'string' && json[key] ? (json[key] as string) : undefined);
  const projectId = text('project_id');
  const clientEmail = text('client_email');
  const privateKey = text('private_key');
  if (!projectId || !clientEmail || !privateKey) {
    throw new ProviderError('The FCM service account (serviceAccount) needs project_id, client_email and private_key');
  }
  const privateKeyId = text('private_key_id');
  return { projectId, clientEmail, privateKey, ...(privateKeyId && { privateKeyId }), tokenUri: text('token_uri') ?? DEFAULT_TOKEN_URI };
}

const keyOf = (account: ServiceAccount, scope: string) => cacheKey('google', account, scope);

export function googleAccessToken(account: ServiceAccount, scope: string): Promise<string> {
  return cachedToken(keyOf(account, scope), async () => {
    const now = Date.now();
    const iat = Math.floor(now / 1000);
    let key;
    try {
      key = createPrivateKey(account.privateKey);
    } catch {
      throw new ProviderError('The FCM service account private_key is not a valid private key');
    }
    const assertion = signJwt(
      'RS256',
      key,
      { typ: 'JWT', ...(account.privateKeyId && { kid: account.privateKeyId }) },
      {
        iss: account.clientEmail,
        scope,
        aud: account.tokenUri,
        iat,
        exp: iat + 3600,
      },
    );
    const answer = await callProvider('Google OAuth', { url: account.tokenUri, form: { grant_type: GRANT_TYPE, assertion } });
    const body = answer.body as { access_token?: unknown; expires_in?: unknown };
    if (typeof body?.access_token !== 'string')
      throw new ProviderError('Google OAuth gave no access token', { status: answer.status, body: answer.body });
    const lifetimeMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
    return { token: body.access_token, expiresAt: now + Math.max(lifetimeMs - MARGIN_MS, 0) };
  });
}

export const forgetGoogleAccessToken = (account: ServiceAccount, scope: string): void => forgetToken(keyOf(account, scope));
