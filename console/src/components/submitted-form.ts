import type { FormEvent } from 'react';

/** A field's value as text, trimmed ('' when absent). */
export type FieldText = (field: string) => string;

/**
 * A form's submit handler that keeps the page (no navigation) and hands over the fields: the
 * forms are uncontrolled, read once on submit, so Enter submits them as any form.
 */
export function onSubmitted(handle: (text: FieldText, form: FormData) => void) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    handle((field) => String(form.get(field) ?? '').trim(), form);
  };
}
