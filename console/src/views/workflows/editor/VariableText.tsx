import { useState, type KeyboardEvent } from 'react';

// A text control that completes variables: typing `{{` (and the start of a name) lists the
// variables the step may use, from the API's `variables` of the step; Arrow keys move, Enter or
// Tab inserts the name and closes the braces, Escape closes the list. A combobox in ARIA's terms.

interface VariableTextProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  variables: string[];
  multiline?: boolean;
  code?: boolean;
  placeholder?: string;
  invalid?: boolean;
  describedBy?: string;
}

const OPEN = /\{\{\s*([\w.]*)$/;

export function VariableText({ id, value, onChange, variables, multiline, code, placeholder, invalid, describedBy }: VariableTextProps) {
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const typed = caret === null ? null : OPEN.exec(value.slice(0, caret));
  const options = typed ? variables.filter((name) => name.startsWith(typed[1]!) && name !== typed[1]).slice(0, 8) : [];
  const open = options.length > 0;
  const listId = `${id}-variables`;

  const pick = (name: string) => {
    if (caret === null || !typed) return;
    const start = caret - typed[1]!.length;
    const rest = value.slice(caret).replace(/^\s*\}\}/, '');
    const next = `${value.slice(0, start)}${name}}}${rest}`;
    onChange(next);
    setCaret(null);
  };
  const keyDown = (event: KeyboardEvent) => {
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => (index + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      pick(options[Math.min(active, options.length - 1)]!);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setCaret(null);
    }
  };
  const common = {
    id,
    value,
    placeholder,
    className: code ? 'code-input' : undefined,
    role: 'combobox',
    'aria-autocomplete': 'list' as const,
    'aria-expanded': open,
    'aria-controls': listId,
    'aria-activedescendant': open ? `${listId}-${Math.min(active, options.length - 1)}` : undefined,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
    spellCheck: false,
    onKeyDown: keyDown,
    onBlur: () => setCaret(null),
    onSelect: (event: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => setCaret(event.currentTarget.selectionStart),
  };
  const change = (event: { target: HTMLInputElement | HTMLTextAreaElement }) => {
    onChange(event.target.value);
    setCaret(event.target.selectionStart);
    setActive(0);
  };

  return (
    <div className="variable-text">
      {multiline ? (
        <textarea {...common} rows={code ? 8 : 3} onChange={change} />
      ) : (
        <input {...common} type="text" autoComplete="off" onChange={change} />
      )}
      <ul id={listId} role="listbox" aria-label="Variables" hidden={!open} className="variable-options">
        {options.map((name, index) => (
          <li
            key={name}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === Math.min(active, options.length - 1)}
            // Before the field's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              pick(name);
            }}
          >
            {name}
          </li>
        ))}
      </ul>
    </div>
  );
}
