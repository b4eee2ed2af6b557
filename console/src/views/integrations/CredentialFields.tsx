import type { ProviderDef } from '../../../../lib/integrations/catalogue.ts';
import { fieldKind, type FormCredentials } from './credential-values.ts';
import { fieldProblem } from '../../components/api-field-error.tsx';
import { Empty } from '../../components/states.tsx';

/**
 * The provider's credential fields from the catalogue: its display names as labels, required
 * ones marked, secrets as password inputs, flags as checkboxes. Required is not enforced here:
 * the API requires them only of an active integration, and says which are missing.
 */
export function CredentialFields({
  provider,
  values,
  errors,
  onChange,
}: {
  provider: ProviderDef;
  values: FormCredentials;
  /** Messages by field name (`credentials.<key>`), the API's and the form's own. */
  errors: Record<string, string>;
  onChange: (key: string, value: string | boolean) => void;
}) {
  if (provider.credentials.length === 0) {
    return <Empty>{provider.displayName} needs no credentials.</Empty>;
  }
  return (
    <fieldset>
      <legend>Credentials</legend>
      <small>Fields marked required must be filled for the integration to be active.</small>
      {provider.credentials.map(({ key, displayName, required }) => {
        const kind = fieldKind(key);
        const id = `credential-${key}`;
        const problem = fieldProblem(id, errors[`credentials.${key}`]);
        const value = values[key];
        const label = (
          <>
            {displayName}
            {required ? <small className="required"> (required)</small> : null}
          </>
        );
        if (kind === 'boolean') {
          return (
            <div key={key}>
              <label>
                <input
                  type="checkbox"
                  name={key}
                  checked={value === true}
                  onChange={(e) => onChange(key, e.target.checked)}
                  {...problem.inputProps}
                />
                {label}
              </label>
              {problem.note}
            </div>
          );
        }
        const common = {
          id,
          name: key,
          value: typeof value === 'string' ? value : '',
          'aria-required': required,
          ...problem.inputProps,
        };
        return (
          <div key={key}>
            <label htmlFor={id}>{label}</label>
            {kind === 'json' ? (
              <textarea {...common} rows={3} placeholder="{}" onChange={(e) => onChange(key, e.target.value)} />
            ) : (
              <input
                {...common}
                type={kind === 'secret' ? 'password' : 'text'}
                autoComplete={kind === 'secret' ? 'new-password' : 'off'}
                onChange={(e) => onChange(key, e.target.value)}
              />
            )}
            {problem.note}
          </div>
        );
      })}
    </fieldset>
  );
}
