import { api } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import { readSession, writeSession, type EnvironmentInfo, type Session } from './session.ts';

interface EnvironmentDto {
  _id: string;
  name: string;
  _organizationId: string;
  identifier: string;
}
interface CurrentEnvironmentDto {
  _id: string;
  _organizationId: string;
}

/**
 * Checks `apiKey` against the API and remembers it for its environment. A key of another
 * organization than the one signed in to starts a new session (the old keys are dropped).
 * Returns the key's environment id.
 */
export async function signIn(apiKey: string): Promise<string> {
  const key = apiKey.trim();
  if (!key) throw new ApiError(400, 'Enter an API key', null);
  const [{ data: current }, { data: environments }] = await Promise.all([
    api<{ data: CurrentEnvironmentDto }>('', '/v1/environments/me', { apiKey: key }),
    api<{ data: EnvironmentDto[] }>('', '/v1/environments', { apiKey: key }),
  ]);
  const previous = readSession();
  const sameOrganization = previous?.organizationId === current._organizationId;
  const session: Session = {
    organizationId: current._organizationId,
    environments: environments.map((e): EnvironmentInfo => ({ id: e._id, name: e.name, applicationIdentifier: e.identifier })),
    keys: { ...(sameOrganization ? previous.keys : {}), [current._id]: key },
  };
  writeSession(session);
  return current._id;
}

export const signOut = (): void => writeSession(null);
