import { useState } from 'react';
import { ActionField, RedirectField } from './ActionFields.tsx';
import { BlockDocumentField } from './BlockDocumentField.tsx';
import { ConditionField } from './ConditionField.tsx';
import type { DraftStep, JsonSchema, UiProperty } from './draft.ts';
import { LayoutSelect } from './LayoutSelect.tsx';
import { VariableText } from './VariableText.tsx';

// A step's controls as a form, driven by the step's `controls.dataSchema` (the type, the allowed
// values, what is required) and `uiSchema` (which component edits each control, as the
// interface names them: an action or redirect as its own small form, the layout chosen from the
// environment's). Text offers the step's variables as it is typed. Each field shows what the API reports about it: its 422 message on
// save, else the saved step's issues.

const LABELS: Record<string, string> = {
  subject: 'Subject',
  body: 'Body',
  avatar: 'Avatar URL',
  primaryAction: 'Primary action',
  secondaryAction: 'Secondary action',
  redirect: 'Redirect',
  disableOutputSanitization: 'Send the content unsanitized',
  data: 'Data',
  skip: 'Conditions (JSON Logic): send only when it holds',
  editorType: 'Editor',
  layoutId: 'Layout',
  from: 'From',
  type: 'Type',
  amount: 'Amount',
  unit: 'Unit',
  lookBackWindow: 'Look-back window',
  cron: 'Schedule (cron)',
  digestKey: 'Digest key',
  extendToSchedule: 'Extend to the subscriber’s schedule',
  dynamicKey: 'Dynamic key (payload path of the date or duration)',
  threshold: 'Threshold (messages per window)',
  throttleKey: 'Throttle key',
  custom: 'Custom values',
};

/** Components whose text spans lines; EMAIL_BODY is HTML (the block editor's document has a form of its own). */
const MULTILINE = new Set(['IN_APP_BODY', 'SMS_BODY', 'CHAT_BODY', 'PUSH_BODY', 'EMAIL_BODY']);

/** What a field is about to be hidden for: a digest on a schedule has no amount, a regular one no cron. */
function shown(name: string, values: Record<string, unknown>): boolean {
  const timed = values.type === 'timed';
  if (['amount', 'unit', 'lookBackWindow'].includes(name)) return !timed;
  if (name === 'cron') return timed;
  if (name === 'dynamicKey') return values.type === 'dynamic';
  return true;
}

const typeOf = (schema: JsonSchema): string =>
  Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'string') : (schema.type ?? 'object');

export interface ControlFieldsProps {
  environmentId: string;
  step: DraftStep;
  /** What the step's text may name. */
  variables: string[];
  onChange: (values: Record<string, unknown>) => void;
  /** The API's 422 messages about this step's controls, by control name. */
  errors: Record<string, string>;
}

export function ControlFields({ environmentId, step, variables, onChange, errors }: ControlFieldsProps) {
  const properties = step.dataSchema.properties ?? {};
  const ui = step.uiSchema.properties ?? {};
  // The uiSchema's order first (the editor's layout), then any control it does not place.
  const placed = [...Object.keys(ui).filter((name) => name in properties), ...Object.keys(properties).filter((name) => !(name in ui))];
  // The email's editor before its body: the choice decides how the body is edited.
  const names = placed.includes('editorType')
    ? placed.filter((name) => name !== 'editorType').flatMap((name) => (name === 'body' ? ['editorType', name] : [name]))
    : placed;
  const set = (name: string, value: unknown) => onChange({ ...step.values, [name]: value });
  return (
    <div className="control-fields">
      {names
        .filter((name) => shown(name, step.values))
        .map((name) => (
          <ControlField
            key={name}
            environmentId={environmentId}
            step={step}
            variables={variables}
            name={name}
            schema={properties[name]!}
            ui={ui[name]}
            required={step.dataSchema.required?.includes(name) ?? false}
            value={step.values[name]}
            onChange={(value) => set(name, value)}
            problem={errors[name] ?? step.issues?.controls?.[name]?.map((issue) => issue.message).join('; ')}
          />
        ))}
    </div>
  );
}

interface ControlFieldProps {
  environmentId: string;
  step: DraftStep;
  variables: string[];
  name: string;
  schema: JsonSchema;
  ui: UiProperty | undefined;
  required: boolean;
  value: unknown;
  onChange: (value: unknown) => void;
  problem: string | undefined;
}

function ControlField({ environmentId, step, variables, name, schema, ui, required, value, onChange, problem }: ControlFieldProps) {
  const id = `${step.key}-${name}`;
  const type = typeOf(schema);
  const emailBody = ui?.component === 'EMAIL_BODY';
  const label = emailBody ? 'Body (HTML)' : (LABELS[name] ?? name);
  const describedBy = problem ? `${id}-problem` : undefined;
  const note = problem ? (
    <small id={`${id}-problem`} className="field-error">
      {problem}
    </small>
  ) : null;
  const placeholder = typeof ui?.placeholder === 'string' && ui.placeholder ? ui.placeholder : undefined;

  if (ui?.component === 'QUERY_EDITOR') {
    return <ConditionField id={id} value={value} variables={variables} onChange={onChange} problem={problem} />;
  }
  const form = { id, label, schema, value, variables, onChange, problem };
  if (ui?.component === 'IN_APP_BUTTON_DROPDOWN') return <ActionField {...form} />;
  if (ui?.component === 'URL_TEXT_BOX') return <RedirectField {...form} />;
  if (ui?.component === 'LAYOUT_SELECT')
    return <LayoutSelect environmentId={environmentId} id={id} value={value} onChange={onChange} problem={problem} />;
  if (type === 'boolean') {
    return (
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
        />
        {label}
        {note}
      </label>
    );
  }
  if (schema.enum) {
    return (
      <label>
        {label}
        <select
          value={value === undefined || value === null ? '' : String(value)}
          onChange={(event) => onChange(event.target.value || undefined)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
        >
          {!required && <option value="">(default)</option>}
          {schema.enum.map((option) => (
            <option key={String(option)} value={String(option)}>
              {String(option)}
            </option>
          ))}
        </select>
        {note}
      </label>
    );
  }
  if (type === 'number' || type === 'integer') {
    return (
      <label>
        {label}
        <input
          type="number"
          min={schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum : undefined)}
          step={type === 'integer' ? 1 : 'any'}
          value={typeof value === 'number' ? value : ''}
          onChange={(event) => onChange(event.target.value === '' ? undefined : Number(event.target.value))}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
        />
        {note}
      </label>
    );
  }
  if (emailBody && step.values.editorType === 'block') {
    return (
      <BlockDocumentField
        id={id}
        value={typeof value === 'string' ? value : ''}
        onChange={onChange}
        variables={variables}
        problem={problem}
        note={note}
      />
    );
  }
  if (type === 'string') {
    return (
      <div className="control-field">
        <label htmlFor={id}>
          {label}
          {required ? '' : ' (optional)'}
        </label>
        <VariableText
          id={id}
          value={typeof value === 'string' ? value : ''}
          onChange={onChange}
          variables={variables}
          multiline={MULTILINE.has(ui?.component ?? '')}
          code={emailBody}
          {...(placeholder && { placeholder })}
          invalid={Boolean(problem)}
          {...(describedBy && { describedBy })}
        />
        {note}
      </div>
    );
  }
  return <JsonField id={id} label={label} value={value} onChange={onChange} problem={problem} note={note} />;
}

/** An object control no form is made for (an in-app message's data, a custom step's values) as JSON, kept as typed until it parses. */
function JsonField({
  id,
  label,
  value,
  onChange,
  problem,
  note,
}: {
  id: string;
  label: string;
  value: unknown;
  onChange: (value: unknown) => void;
  problem: string | undefined;
  note: React.ReactNode;
}) {
  const [text, setText] = useState(() => (value === undefined ? '' : JSON.stringify(value, null, 2)));
  const [parseError, setParseError] = useState<string>();
  const change = (next: string) => {
    setText(next);
    if (!next.trim()) {
      setParseError(undefined);
      onChange(undefined);
      return;
    }
    try {
      onChange(JSON.parse(next));
      setParseError(undefined);
    } catch (error) {
      setParseError(`Not JSON yet: ${(error as Error).message}`);
    }
  };
  return (
    <details className="json-control" open={Boolean(problem) || value !== undefined}>
      <summary>{label}</summary>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <textarea
        id={id}
        className="code-input"
        rows={3}
        value={text}
        spellCheck={false}
        onChange={(event) => change(event.target.value)}
        aria-invalid={problem || parseError ? true : undefined}
      />
      {parseError && <small className="field-error">{parseError}</small>}
      {note}
    </details>
  );
}
