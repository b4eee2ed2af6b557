// The messages of one form field, tied to it by id (aria-describedby) so a screen reader reads them.

export function FieldMessage({ id, messages }: { id: string; messages: readonly string[] | undefined }) {
  if (!messages?.length) return null;
  return (
    <small id={id} className="field-error">
      {messages.join('; ')}
    </small>
  );
}

/** The props that mark an input invalid and point it at its messages. */
export function invalidProps(id: string, messages: readonly string[] | undefined) {
  return messages?.length ? { 'aria-invalid': true as const, 'aria-describedby': id } : {};
}
