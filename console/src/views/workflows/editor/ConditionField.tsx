import { useState } from 'react';

// A step's condition (the `skip` control, edited with the QUERY_EDITOR component): the step runs
// only when the rule holds. Rows of "variable, operator, value" joined by all/any, written as the
// JSON Logic the API evaluates (`{"and": [{"==": [{"var": "payload.plan"}, "pro"]}]}`). A rule
// these rows cannot show (written by hand or by the API) stays editable as JSON.

type Operator = '==' | '!=' | '>' | '<' | 'set' | 'unset';
interface Row {
  variable: string;
  operator: Operator;
  value: string;
}
type Join = 'and' | 'or';

const OPERATORS: [Operator, string][] = [
  ['==', 'equals'],
  ['!=', 'does not equal'],
  ['>', 'is greater than'],
  ['<', 'is less than'],
  ['set', 'is set'],
  ['unset', 'is not set'],
];

const valueOf = (text: string): unknown => (text.trim() !== '' && !Number.isNaN(Number(text)) ? Number(text) : text);

function ruleOf(row: Row): Record<string, unknown> {
  const variable = { var: row.variable };
  if (row.operator === 'set') return { '!!': [variable] };
  if (row.operator === 'unset') return { '!': [variable] };
  return { [row.operator]: [variable, valueOf(row.value)] };
}

export function logicOf(rows: Row[], join: Join): Record<string, unknown> | undefined {
  const rules = rows.filter((row) => row.variable.trim()).map(ruleOf);
  if (rules.length === 0) return undefined;
  return rules.length === 1 ? rules[0] : { [join]: rules };
}

/** The rows a rule reads as, or undefined when it has another shape. */
function rowsOf(rule: unknown): { rows: Row[]; join: Join } | undefined {
  if (rule === undefined || rule === null || (typeof rule === 'object' && Object.keys(rule).length === 0)) return { rows: [], join: 'and' };
  const one = (part: unknown): Row | undefined => {
    if (!part || typeof part !== 'object' || Object.keys(part).length !== 1) return undefined;
    const [[operator, args]] = Object.entries(part) as [[string, unknown]];
    if (!Array.isArray(args)) return undefined;
    const variable = (args[0] as { var?: unknown } | undefined)?.var;
    if (typeof variable !== 'string') return undefined;
    if (operator === '!!' && args.length === 1) return { variable, operator: 'set', value: '' };
    if (operator === '!' && args.length === 1) return { variable, operator: 'unset', value: '' };
    if (['==', '!=', '>', '<'].includes(operator) && args.length === 2 && ['string', 'number'].includes(typeof args[1]))
      return { variable, operator: operator as Operator, value: String(args[1]) };
    return undefined;
  };
  const entries = Object.entries(rule as object);
  if (entries.length === 1 && (entries[0]![0] === 'and' || entries[0]![0] === 'or') && Array.isArray(entries[0]![1])) {
    const rows = (entries[0]![1] as unknown[]).map(one);
    return rows.every(Boolean) ? { rows: rows as Row[], join: entries[0]![0] as Join } : undefined;
  }
  const row = one(rule);
  return row ? { rows: [row], join: 'and' } : undefined;
}

export function ConditionField({
  id,
  value,
  variables,
  onChange,
  problem,
}: {
  id: string;
  value: unknown;
  variables: string[];
  onChange: (value: unknown) => void;
  problem: string | undefined;
}) {
  const [state, setState] = useState(() => rowsOf(value));
  const listId = `${id}-names`;
  if (!state) {
    return (
      <p className="empty">
        This step's condition is a JSON Logic rule the form cannot show: <code>{JSON.stringify(value)}</code>
      </p>
    );
  }
  const update = (rows: Row[], join: Join = state.join) => {
    setState({ rows, join });
    onChange(logicOf(rows, join));
  };
  const setRow = (index: number, change: Partial<Row>) => update(state.rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <fieldset className="condition-field" aria-describedby={problem ? `${id}-problem` : undefined}>
      <legend>Conditions: send only when</legend>
      <datalist id={listId}>
        {variables.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {state.rows.length === 0 && <small>Always sent.</small>}
      {state.rows.length > 1 && (
        <label>
          Join
          <select value={state.join} onChange={(event) => update(state.rows, event.target.value as Join)}>
            <option value="and">all of these hold</option>
            <option value="or">any of these holds</option>
          </select>
        </label>
      )}
      {state.rows.map((row, index) => (
        <div key={index} role="group" aria-label={`Condition ${index + 1}`} className="condition-row">
          <input
            aria-label="Variable"
            list={listId}
            value={row.variable}
            placeholder="payload.plan"
            onChange={(event) => setRow(index, { variable: event.target.value })}
          />
          <select
            aria-label="Operator"
            value={row.operator}
            onChange={(event) => setRow(index, { operator: event.target.value as Operator })}
          >
            {OPERATORS.map(([operator, label]) => (
              <option key={operator} value={operator}>
                {label}
              </option>
            ))}
          </select>
          {row.operator !== 'set' && row.operator !== 'unset' && (
            <input aria-label="Value" value={row.value} onChange={(event) => setRow(index, { value: event.target.value })} />
          )}
          <button
            type="button"
            className="secondary outline"
            aria-label={`Remove condition ${index + 1}`}
            onClick={() => update(state.rows.filter((_, i) => i !== index))}
          >
            ×
          </button>
        </div>
      ))}
      <button
        type="button"
        className="secondary outline"
        onClick={() => update([...state.rows, { variable: '', operator: '==', value: '' }])}
      >
        Add condition
      </button>
      {problem && (
        <small id={`${id}-problem`} className="field-error">
          {problem}
        </small>
      )}
    </fieldset>
  );
}
