import { useState, type FormEvent } from 'react';
import { ErrorNote } from '../components/states.tsx';
import { signIn } from './sign-in.ts';

/**
 * The form that signs in with an API key, on the sign-in page and where an environment's key is
 * missing: busy while the API checks the key, the failure shown. `onSignedIn` gets the key's
 * environment id and may throw to refuse it.
 */
export function ApiKeyForm({
  label,
  autoFocus = false,
  onSignedIn,
}: {
  label: string;
  autoFocus?: boolean;
  onSignedIn: (environmentId: string) => void;
}) {
  const [apiKey, setApiKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(apiKey));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit}>
      <label>
        {label}
        <input
          name="apiKey"
          type="password"
          autoComplete="off"
          required
          autoFocus={autoFocus}
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
        />
      </label>
      {error ? <ErrorNote error={error} title="Sign-in failed" /> : null}
      <button type="submit" aria-busy={busy} disabled={busy}>
        Sign in
      </button>
    </form>
  );
}
