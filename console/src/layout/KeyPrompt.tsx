import { useState, type FormEvent } from 'react';
import { ErrorNote } from '../components/states.tsx';
import type { EnvironmentInfo } from '../session/session.ts';
import { signIn } from '../session/sign-in.ts';
import { ApiError } from '../api/errors.ts';

/** Asks for the API key of an environment the console has no key for (switched to, or a shared URL). */
export function KeyPrompt({ environment, environmentId }: { environment?: EnvironmentInfo; environmentId: string }) {
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const signedInTo = await signIn(apiKey);
      if (signedInTo !== environmentId) setError(new ApiError(403, `That key belongs to another environment`, null));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <article>
      <h2>Sign in to {environment?.name ?? 'this environment'}</h2>
      <p>The console holds no API key for this environment yet. Enter one of its keys.</p>
      <form onSubmit={submit}>
        <label>
          API key of {environment?.name ?? environmentId}
          <input name="apiKey" type="password" autoComplete="off" required value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
        </label>
        {error ? <ErrorNote error={error} title="Sign-in failed" /> : null}
        <button type="submit" aria-busy={busy} disabled={busy}>
          Sign in
        </button>
      </form>
    </article>
  );
}
