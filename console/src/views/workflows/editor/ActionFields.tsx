import type { JsonSchema } from './draft.ts';
import { VariableText } from './VariableText.tsx';

// An in-app message's buttons and click-through as forms, for the components the uiSchema names:
// IN_APP_BUTTON_DROPDOWN (an action: a label and where it leads) and URL_TEXT_BOX (a redirect: a
// URL and the window it opens in). The window choices are the dataSchema's; a field left empty is
// left out, and an action or redirect with nothing in it is no control at all.

interface Redirect {
  url?: string;
  target?: string;
}
interface Action {
  label?: string;
  redirect?: Redirect;
}

const TARGET_LABELS: Record<string, string> = {
  _self: 'the same window',
  _blank: 'a new tab',
  _parent: 'the parent frame',
  _top: 'the whole window',
  _unfencedTop: 'the whole window (from a fenced frame)',
};

const asObject = <T,>(value: unknown): T => (value && typeof value === 'object' && !Array.isArray(value) ? (value as T) : ({} as T));

/** Empty strings and empty objects dropped; undefined when nothing is left. */
function pruned<T extends object>(value: T): T | undefined {
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && v !== '');
  return entries.length > 0 ? (Object.fromEntries(entries) as T) : undefined;
}

interface FieldProps {
  id: string;
  label: string;
  schema: JsonSchema;
  value: unknown;
  variables: string[];
  onChange: (value: unknown) => void;
  problem: string | undefined;
}

function RedirectInputs({
  id,
  schema,
  value,
  variables,
  onChange,
}: {
  id: string;
  schema: JsonSchema;
  value: Redirect;
  variables: string[];
  onChange: (value: Redirect | undefined) => void;
}) {
  const targets = schema.properties?.target?.enum ?? [];
  return (
    <div className="grid action-redirect">
      <div className="control-field">
        <label htmlFor={`${id}-url`}>URL</label>
        <VariableText
          id={`${id}-url`}
          value={value.url ?? ''}
          variables={variables}
          placeholder="/orders/{{payload.orderId}}"
          onChange={(url) => onChange(pruned({ ...value, url }))}
        />
      </div>
      <label>
        Opens in
        <select value={value.target ?? ''} onChange={(event) => onChange(pruned({ ...value, target: event.target.value }))}>
          <option value="">(default)</option>
          {targets.map((target) => (
            <option key={String(target)} value={String(target)}>
              {TARGET_LABELS[String(target)] ?? String(target)}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** IN_APP_BUTTON_DROPDOWN: a button of the message, its label and where it leads. */
export function ActionField({ id, label, schema, value, variables, onChange, problem }: FieldProps) {
  const action = asObject<Action>(value);
  const redirectSchema = schema.properties?.redirect ?? {};
  return (
    <fieldset className="action-field" aria-describedby={problem ? `${id}-problem` : undefined}>
      <legend>{label}</legend>
      <div className="control-field">
        <label htmlFor={`${id}-label`}>Button label</label>
        <VariableText
          id={`${id}-label`}
          value={action.label ?? ''}
          variables={variables}
          onChange={(text) => onChange(pruned({ ...action, label: text }))}
        />
      </div>
      <RedirectInputs
        id={id}
        schema={redirectSchema}
        value={asObject<Redirect>(action.redirect)}
        variables={variables}
        onChange={(redirect) => onChange(pruned({ ...action, redirect }))}
      />
      {problem && (
        <small id={`${id}-problem`} className="field-error">
          {problem}
        </small>
      )}
    </fieldset>
  );
}

/** URL_TEXT_BOX: where a click on the message leads. */
export function RedirectField({ id, label, schema, value, variables, onChange, problem }: FieldProps) {
  return (
    <fieldset className="action-field" aria-describedby={problem ? `${id}-problem` : undefined}>
      <legend>{label}</legend>
      <RedirectInputs id={id} schema={schema} value={asObject<Redirect>(value)} variables={variables} onChange={onChange} />
      {problem && (
        <small id={`${id}-problem`} className="field-error">
          {problem}
        </small>
      )}
    </fieldset>
  );
}
