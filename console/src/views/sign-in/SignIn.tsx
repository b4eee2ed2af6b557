import { useNavigate, useSearchParams } from 'react-router';
import { consolePath } from '../../components/console-path.ts';
import { ApiKeyForm } from '../../session/ApiKeyForm.tsx';

/** Sign-in with an environment's API key; `?next=` returns to the shared URL that asked for it. */
export function SignIn() {
  const navigate = useNavigate();
  const [params] = useSearchParams();

  return (
    <main className="container sign-in">
      <article>
        <header>
          <h1>Notify console</h1>
          <p>Sign in with an environment's API key. It stays in this browser tab only.</p>
        </header>
        <ApiKeyForm
          label="API key"
          autoFocus
          onSignedIn={(environmentId) => {
            const next = params.get('next');
            navigate(next?.startsWith('/console/') ? next : consolePath(environmentId, 'activity'), { replace: true });
          }}
        />
        <footer>
          <small>
            <code>npm start</code> prints the demo organization's keys.
          </small>
        </footer>
      </article>
    </main>
  );
}
