import { useState } from 'react';

/** A signing secret the API shows only once (on create and rotation): shown here with a copy button. */
export function SecretReveal({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed'>();
  return (
    <article className="done-note" aria-label="Signing secret">
      <header>
        <strong>Signing secret</strong>: copy it now, it is not shown again.
      </header>
      <label>
        Secret
        <input readOnly value={secret} onFocus={(event) => event.currentTarget.select()} />
      </label>
      <div className="grid">
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(secret).then(
              () => setCopied('yes'),
              () => setCopied('failed'),
            )
          }
        >
          Copy secret
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
      {copied ? (
        <p role="status">
          {copied === 'yes' ? 'Copied to the clipboard.' : 'The browser refused the clipboard: select the secret and copy it.'}
        </p>
      ) : null}
    </article>
  );
}
