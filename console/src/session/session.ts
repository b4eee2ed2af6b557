// Who the console acts as: one API key per environment, kept in this tab's sessionStorage only
// (gone when the tab closes; never in localStorage, a cookie or a URL). Signing in with a key
// learns its organization's environments (GET /v1/environments); a key for another environment
// of the same organization can be added from the switcher.

export interface EnvironmentInfo {
  id: string;
  name: string;
  /** What a front end opens the environment's inboxes with. */
  applicationIdentifier: string;
}

export interface Session {
  organizationId: string;
  environments: EnvironmentInfo[];
  /** API keys by environment id: only the environments signed in to. */
  keys: Record<string, string>;
}

const STORAGE_KEY = 'notify-console-session';
const listeners = new Set<() => void>();
let cached: Session | null | undefined;

export function readSession(): Session | null {
  if (cached !== undefined) return cached;
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    cached = raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    cached = null;
  }
  return cached;
}

export function writeSession(session: Session | null): void {
  cached = session;
  if (session) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(STORAGE_KEY);
  for (const listener of listeners) listener();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const keyFor = (environmentId: string): string | undefined => readSession()?.keys[environmentId];
