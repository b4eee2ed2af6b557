import { useSyncExternalStore } from 'react';
import { readSession, subscribeSession, type EnvironmentInfo, type Session } from './session.ts';

export const useSession = (): Session | null => useSyncExternalStore(subscribeSession, readSession);

/** The environment of the current view (its id is in the URL) and whether the console holds its key. */
export function useEnvironment(environmentId: string | undefined): { environment?: EnvironmentInfo; signedIn: boolean } {
  const session = useSession();
  const environment = session?.environments.find((e) => e.id === environmentId);
  return { ...(environment && { environment }), signedIn: Boolean(environmentId && session?.keys[environmentId]) };
}
