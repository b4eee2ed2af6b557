import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api } from '../../api/client.ts';
import { ErrorNote } from '../../components/states.tsx';
import { fieldMessages, fieldProblem } from '../../components/api-field-error.tsx';
import { subscriberQueryKey, subscribersListKey } from './query-keys.ts';
import type { Subscriber } from './types.ts';
import { readAgain } from '../../api/read-again.ts';

// PATCH /v2/subscribers/{id}: the profile fields; an emptied field is sent as null, which clears
// it. A 422 shows each message next to its field.

const FIELDS = [
  ['firstName', 'First name', 'text'],
  ['lastName', 'Last name', 'text'],
  ['email', 'Email', 'email'],
  ['phone', 'Phone', 'tel'],
  ['locale', 'Locale', 'text'],
  ['timezone', 'Time zone', 'text'],
  ['avatar', 'Avatar URL', 'url'],
] as const;
type Field = (typeof FIELDS)[number][0];

type Draft = Record<Field | 'data', string>;

const draftOf = (s: Subscriber): Draft => ({
  ...(Object.fromEntries(FIELDS.map(([name]) => [name, s[name] ?? ''])) as Record<Field, string>),
  data: s.data && Object.keys(s.data).length > 0 ? JSON.stringify(s.data, null, 2) : '',
});

export function ProfileForm({ environmentId, subscriber }: { environmentId: string; subscriber: Subscriber }) {
  const queryClient = useQueryClient();
  const formId = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(subscriber));
  const [dataError, setDataError] = useState<string>();
  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      api<Subscriber>(environmentId, `/v2/subscribers/${encodeURIComponent(subscriber.subscriberId)}`, { method: 'PATCH', body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(subscriberQueryKey(environmentId, subscriber.subscriberId), saved);
      setDraft(draftOf(saved));
      void readAgain(queryClient, subscribersListKey(environmentId));
    },
  });
  const errors = fieldMessages(save.error);
  const fieldError = (name: string) => errors[name] ?? (name === 'data' ? dataError : undefined);
  const placed = Object.keys(errors);
  const unplaced = save.error && (placed.length === 0 || placed.some((name) => !(name in draft)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    let data: unknown = null;
    if (draft.data.trim()) {
      try {
        data = JSON.parse(draft.data);
      } catch {
        data = undefined;
      }
      if (!data || typeof data !== 'object' || Array.isArray(data)) {
        setDataError('Data must be a JSON object, e.g. {"plan": "pro"}');
        return;
      }
    }
    setDataError(undefined);
    const body: Record<string, unknown> = { data };
    for (const [name] of FIELDS) body[name] = draft[name].trim() || null;
    save.mutate(body);
  };

  const problem = (name: Field | 'data') => fieldProblem(`${formId}-${name}`, fieldError(name));
  const input = (name: Field | 'data') => ({
    id: `${formId}-${name}`,
    name,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
    ...problem(name).inputProps,
  });
  const errorText = (name: Field | 'data') => problem(name).note;

  return (
    // noValidate: the API decides what is valid, and its message is the one shown.
    <form onSubmit={submit} aria-label="Profile" noValidate>
      <div className="grid profile-grid">
        {FIELDS.map(([name, label, type]) => (
          <div key={name}>
            <label htmlFor={`${formId}-${name}`}>{label}</label>
            <input type={type} autoComplete="off" {...input(name)} />
            {errorText(name)}
          </div>
        ))}
      </div>
      <label htmlFor={`${formId}-data`}>Data (JSON object)</label>
      <textarea rows={5} spellCheck={false} {...input('data')} />
      {errorText('data')}
      {unplaced && <ErrorNote error={save.error} title="Could not save the profile" />}
      <button type="submit" className="profile-save" disabled={save.isPending} aria-busy={save.isPending}>
        Save profile
      </button>{' '}
      {save.isSuccess && <span role="status">Saved.</span>}
    </form>
  );
}
