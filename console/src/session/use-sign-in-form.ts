import { useState, type FormEvent } from 'react';
import { signIn } from './sign-in.ts';

/**
 * The state of a form that signs in with an API key: the key typed, busy while the API checks it,
 * the failure to show. `onSignedIn` gets the key's environment id and may throw to refuse it.
 */
export function useSignInForm(onSignedIn: (environmentId: string) => void) {
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

  return { apiKey, setApiKey, busy, error, submit };
}
