import { ApiError } from '../api/errors.ts';
import { ErrorNote } from '../components/states.tsx';
import type { EnvironmentInfo } from '../session/session.ts';
import { useSignInForm } from '../session/use-sign-in-form.ts';

/** Asks for the API key of an environment the console has no key for (switched to, or a shared URL). */
export function KeyPrompt({ environment, environmentId }: { environment?: EnvironmentInfo; environmentId: string }) {
  const { apiKey, setApiKey, busy, error, submit } = useSignInForm((signedInTo) => {
    if (signedInTo !== environmentId) throw new ApiError(403, 'That key belongs to another environment', null);
  });

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
