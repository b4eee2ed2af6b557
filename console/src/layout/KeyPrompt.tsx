import { ApiError } from '../api/errors.ts';
import type { EnvironmentInfo } from '../session/session.ts';
import { ApiKeyForm } from '../session/ApiKeyForm.tsx';

/** Asks for the API key of an environment the console has no key for (switched to, or a shared URL). */
export function KeyPrompt({ environment, environmentId }: { environment?: EnvironmentInfo; environmentId: string }) {
  return (
    <article>
      <h2>Sign in to {environment?.name ?? 'this environment'}</h2>
      <p>The console holds no API key for this environment yet. Enter one of its keys.</p>
      <ApiKeyForm
        label={`API key of ${environment?.name ?? environmentId}`}
        onSignedIn={(signedInTo) => {
          if (signedInTo !== environmentId) throw new ApiError(403, 'That key belongs to another environment', null);
        }}
      />
    </article>
  );
}
