import { liveApiKeyItems } from '../auth/api-keys.ts';
import { dataKeys, open } from '../crypto/data-keys.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { keys } from '../store/keys.ts';
import { setOnExisting } from '../store/update-existing.ts';
import { getEnvironment } from '../accounts/environments.ts';

// What an environment knows of its bridge: the URL a sync stored on it (`bridge.url`), and the
// secret key calls to it are signed with. The reference signs with the environment's secret key,
// which is its API key; keys here are looked up by hash and kept sealed besides
// (lib/auth/api-keys.ts), so the key is opened from its sealed copy: the environment's newest key
// without an end, the one a rotation made current (docs/code-first.md, "Signing").

export async function storeBridgeUrl(scope: EnvScope, url: string): Promise<void> {
  const stored = await setOnExisting(keys.environment(scope.organizationId, scope.environmentId), { bridge: { url } });
  if (!stored) throw new NotFoundError(`Environment ${scope.environmentId} not found`);
}

/** The environment's bridge URL; 400 as the reference's when no sync has set one. */
export async function requireBridgeUrl(scope: EnvScope): Promise<string> {
  const environment = await getEnvironment(scope.organizationId, scope.environmentId);
  if (!environment?.bridge?.url) throw new BadRequestError('Bridge URL not found: run `npx novu sync` for this environment first');
  return environment.bridge.url;
}

export async function storedBridgeUrl(scope: EnvScope): Promise<string | undefined> {
  return (await getEnvironment(scope.organizationId, scope.environmentId))?.bridge?.url;
}

/** The key bridge calls of the environment are signed with (undefined: none can be opened). */
export async function signingKey(scope: EnvScope): Promise<string | undefined> {
  const items = (await liveApiKeyItems(scope)).filter((item) => item.sealedKey !== undefined && item.dataKey !== undefined);
  const current = items.filter((item) => item.expiresAt === undefined).at(-1) ?? items.at(-1);
  if (!current) return undefined;
  return open(await dataKeys().unwrap(current.dataKey!), current.sealedKey!).toString('utf8');
}

/** `dev` or `prod`, as the reference names an environment's type on every bridge call. */
export const environmentType = (name: string | undefined): 'dev' | 'prod' => (name === 'Production' ? 'prod' : 'dev');
