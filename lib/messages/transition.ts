import type { EnvScope } from '../scope.ts';
import type { StoredMessage } from './model.ts';
import { getMessage, saveMessageState } from './repository.ts';

// Every change of a message's state (marks, archive, snooze, actions) goes through here: read the
// message, decide its next state, write it conditioned on the state read (saveMessageState), and
// on a lost race read again and decide again. So concurrent changes never undo each other, and
// the inbox indexes written with each state always match it.

/** The message's next state, or undefined when this change does not apply to it as it is. */
export type Change = (message: StoredMessage) => StoredMessage | undefined;

const MAX_ATTEMPTS = 10;

export interface Changed {
  message: StoredMessage;
  /** False when the change did not apply (the message is as it was). */
  changed: boolean;
}

/** The message of the subscriber after `change` (given as read, or by id); undefined when there is none. */
export async function changeMessage(
  scope: EnvScope,
  subscriberId: string,
  message: StoredMessage | string,
  change: Change,
): Promise<Changed | undefined> {
  let current = typeof message === 'string' ? await getMessage(scope, subscriberId, message) : message;
  for (let attempt = 1; current; attempt++) {
    const next = change(current);
    if (!next) return { message: current, changed: false };
    if (await saveMessageState(current, next))
      return { message: { ...next, stateVersion: (current.stateVersion ?? 0) + 1 }, changed: true };
    if (attempt === MAX_ATTEMPTS) throw new Error(`Message ${current._id} kept changing under ${MAX_ATTEMPTS} attempts to change it`);
    current = await getMessage(scope, subscriberId, current._id);
  }
  return undefined;
}
