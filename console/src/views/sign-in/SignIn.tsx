import { useNavigate, useSearchParams } from 'react-router';
import { consolePath } from '../../components/console-path.ts';
import { ErrorNote } from '../../components/states.tsx';
import { useSignInForm } from '../../session/use-sign-in-form.ts';

/** Sign-in with an environment's API key; `?next=` returns to the shared URL that asked for it. */
export function SignIn() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { apiKey, setApiKey, busy, error, submit } = useSignInForm((environmentId) => {
    const next = params.get('next');
    navigate(next?.startsWith('/console/') ? next : consolePath(environmentId, 'activity'), { replace: true });
  });

  return (
    <main className="container sign-in">
      <article>
        <header>
          <h1>Notify console</h1>
          <p>Sign in with an environment's API key. It stays in this browser tab only.</p>
        </header>
        <form onSubmit={submit}>
          <label>
            API key
            <input
              name="apiKey"
              type="password"
              autoComplete="off"
              required
              autoFocus
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
            />
          </label>
          {error ? <ErrorNote error={error} title="Sign-in failed" /> : null}
          <button type="submit" aria-busy={busy} disabled={busy}>
            Sign in
          </button>
        </form>
        <footer>
          <small>
            <code>npm start</code> prints the demo organization's keys.
          </small>
        </footer>
      </article>
    </main>
  );
}
