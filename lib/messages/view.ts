import type { StoredMessage } from './model.ts';

/** A message as the API shows it: the stored fields, without bookkeeping attributes. */
export function messageView(message: StoredMessage): StoredMessage {
  const { version: _v, stateVersion: _s, ...view } = message as StoredMessage & { version?: unknown };
  return view;
}
