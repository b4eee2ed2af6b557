import { keys, type EnvScope } from '../store/keys.ts';
import type { StoredMessage } from './model.ts';

// Storage of messages: one item per message in the subscriber's partition (`MSG#<id>`, ids sort
// by creation). gsi1 lists every message of the environment by id; gsi2 holds only unseen in-app
// messages of a subscriber (sparse), so the unseen count reads only unseen messages.

export const scopeOfMessage = (m: Pick<StoredMessage, '_organizationId' | '_environmentId'>): EnvScope => ({
  organizationId: m._organizationId,
  environmentId: m._environmentId,
});

export function messageItem(m: StoredMessage): Record<string, unknown> {
  const scope = scopeOfMessage(m);
  return {
    ...keys.message(scope, m.subscriberId, m._id),
    ...keys.messageListIndex(scope, m._id),
    ...(m.channel === 'in_app' && !m.seen ? keys.unseenMessageIndex(scope, m.subscriberId, m._id) : {}),
    type: 'Message',
    ...m,
  };
}

export function messageFromItem(item: Record<string, unknown>): StoredMessage {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, type: _t, ...message } = item;
  return message as unknown as StoredMessage;
}
