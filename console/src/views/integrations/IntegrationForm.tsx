import { useState, type FormEvent } from 'react';
import type { ProviderDef } from '../../../../lib/integrations/catalogue.ts';
import { ErrorNote } from '../../components/states.tsx';
import { CredentialFields } from './CredentialFields.tsx';
import { credentialsToSend, formCredentials } from './credential-values.ts';
import { fieldMessages, fieldProblem, OtherFieldMessages } from '../../components/api-field-error.tsx';
import type { CredentialValue, Integration } from './types.ts';

/** What both forms send: create adds the provider and channel, update sends these as they are. */
export interface IntegrationFields {
  name?: string;
  identifier?: string;
  active: boolean;
  check: boolean;
  credentials: Record<string, CredentialValue>;
}

const SHOWN = ['name', 'identifier', 'active', 'check'];

/** The settings and credentials of an integration of `provider`, new (no `current`) or stored. */
export function IntegrationForm({
  provider,
  current,
  submitLabel,
  busy,
  error,
  onSubmit,
}: {
  provider: ProviderDef;
  current?: Integration;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (fields: IntegrationFields) => void;
}) {
  const [name, setName] = useState(current?.name ?? '');
  const [identifier, setIdentifier] = useState(current?.identifier ?? '');
  const [active, setActive] = useState(current?.active ?? true);
  const [check, setCheck] = useState(false);
  const [credentials, setCredentials] = useState(() => formCredentials(provider, current?.credentials));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});

  const errors = { ...fieldMessages(error), ...localErrors };
  const shown = [...SHOWN, ...provider.credentials.map((f) => `credentials.${f.key}`)];
  const nameProblem = fieldProblem('integration-name', errors.name);
  const identifierProblem = fieldProblem('integration-identifier', errors.identifier);

  function submit(event: FormEvent) {
    event.preventDefault();
    const prepared = credentialsToSend(provider, credentials, current?.credentials);
    setLocalErrors(prepared.errors);
    if (Object.keys(prepared.errors).length > 0) return;
    onSubmit({
      ...(name.trim() && { name: name.trim() }),
      ...(identifier.trim() && { identifier: identifier.trim() }),
      active,
      check,
      credentials: prepared.credentials,
    });
  }

  return (
    <form onSubmit={submit} noValidate>
      <div>
        <label htmlFor="integration-name">Name</label>
        <input
          id="integration-name"
          name="name"
          value={name}
          placeholder={provider.displayName}
          onChange={(e) => setName(e.target.value)}
          {...nameProblem.inputProps}
        />
        {nameProblem.note}
      </div>
      <div>
        <label htmlFor="integration-identifier">
          Identifier {current ? null : <small>(optional: made from the provider's id when empty)</small>}
        </label>
        <input
          id="integration-identifier"
          name="identifier"
          value={identifier}
          placeholder={current ? undefined : `${provider.id}-…`}
          onChange={(e) => setIdentifier(e.target.value)}
          {...identifierProblem.inputProps}
        />
        {identifierProblem.note}
      </div>
      <CredentialFields
        provider={provider}
        values={credentials}
        errors={errors}
        onChange={(key, value) => setCredentials((all) => ({ ...all, [key]: value }))}
      />
      <fieldset>
        <label>
          <input type="checkbox" name="active" role="switch" checked={active} onChange={(e) => setActive(e.target.checked)} />
          Active
        </label>
        <label>
          <input type="checkbox" name="check" checked={check} onChange={(e) => setCheck(e.target.checked)} />
          Test the connection before saving
        </label>
        <small>Only where the provider has a call that tests credentials without sending anything.</small>
      </fieldset>
      {error ? <ErrorNote error={error} title="Could not save the integration" /> : null}
      <OtherFieldMessages messages={errors} shown={shown} />
      <button type="submit" disabled={busy} aria-busy={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
