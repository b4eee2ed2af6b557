import type { ReactNode } from 'react';

// A form field with its messages: the label names the input only, and the messages are tied to
// it by aria-describedby, so a screen reader reads them after the name.

export function FieldMessage({ id, messages }: { id: string; messages: readonly string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <small id={id} className="field-error">
      {messages.join('; ')}
    </small>
  );
}

/** The props that mark an input invalid and point it at its messages (`<id>-error`). */
export function invalidProps(id: string, messages: readonly string[] | undefined) {
  return messages?.length ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};
}

/** A label, the input (given the same `id`) and the input's messages. */
export function Field({ id, label, messages, children }: { id: string; label: ReactNode; messages: readonly string[] | undefined; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldMessage id={`${id}-error`} messages={messages} />
    </div>
  );
}
