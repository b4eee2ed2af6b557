import { MESSAGE_EVENTS, PREFERENCE_EVENTS, WORKFLOW_EVENTS } from '../../../../lib/webhooks/event-types.ts';
import { fieldMessage, fieldProblem } from '../../components/api-field-error.tsx';
import { ErrorNote } from '../../components/states.tsx';
import type { EndpointInput } from './types.ts';
import { onSubmitted } from '../../components/submitted-form.ts';

// The event types come from the service's own list (a pure data module, bundled as it is), so the
// checkboxes are always the ones the API accepts.
const GROUPS = [
  ['Messages', MESSAGE_EVENTS],
  ['Workflows', WORKFLOW_EVENTS],
  ['Preferences', PREFERENCE_EVENTS],
] as const;

interface EndpointFormProps {
  /** Prefix of the fields' ids: two forms may be on one page. */
  id: string;
  initial?: EndpointInput;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: EndpointInput) => void;
}

/** URL, description, event types (none checked: every event) and enabled: create and edit alike. */
export function EndpointForm({ id, initial, submitLabel, pending, error, onSubmit }: EndpointFormProps) {
  const url = fieldProblem(`${id}-url`, fieldMessage(error, 'url'));
  const description = fieldProblem(`${id}-description`, fieldMessage(error, 'description'));
  const eventTypes = fieldMessage(error, 'eventTypes');
  const shown = url.note ?? description.note ?? eventTypes;
  return (
    <form
      onSubmit={onSubmitted((text, form) =>
        onSubmit({
          url: text('url'),
          description: text('description'),
          eventTypes: form.getAll('eventTypes').map(String),
          enabled: form.get('enabled') === 'on',
        }),
      )}
    >
      <label>
        URL
        <input
          name="url"
          type="url"
          required
          placeholder="https://example.com/webhooks/notify"
          defaultValue={initial?.url}
          {...url.inputProps}
        />
        {url.note}
      </label>
      <label>
        Description
        <input name="description" maxLength={1024} defaultValue={initial?.description} {...description.inputProps} />
        {description.note}
      </label>
      <fieldset>
        <legend>Event types (none checked: every event)</legend>
        {GROUPS.map(([group, types]) => (
          <fieldset key={group} className="event-types">
            <legend>{group}</legend>
            {types.map((type) => (
              <label key={type}>
                <input type="checkbox" name="eventTypes" value={type} defaultChecked={initial?.eventTypes.includes(type) ?? false} />
                {type}
              </label>
            ))}
          </fieldset>
        ))}
        {eventTypes ? <small>{eventTypes}</small> : null}
      </fieldset>
      <label>
        <input type="checkbox" role="switch" name="enabled" defaultChecked={initial?.enabled ?? true} />
        Enabled
      </label>
      {error && !shown ? <ErrorNote error={error} title="Could not save the endpoint" /> : null}
      <button type="submit" disabled={pending} aria-busy={pending}>
        {submitLabel}
      </button>
    </form>
  );
}
