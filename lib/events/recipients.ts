import { externalIdSchema } from '../external-id.ts';
import type { Recipient } from '../pipeline/model.ts';
import { subscriberDefinitionSchema, topicRecipientSchema } from './schemas.ts';

// A trigger's `to`, as the pipeline takes it: one recipient or a list; each a subscriberId, a
// subscriber definition or a topic. Items that are not valid are dropped (the reference's
// enforcing mode); single subscribers are kept once each, the last definition winning, in the
// place where the id first appeared.

const subscriberId = externalIdSchema('subscriberId');

export interface ParsedRecipients {
  valid: Recipient[];
  invalid: unknown[];
}

export function parseRecipients(to: unknown): ParsedRecipients {
  // Keyed so a repeated subscriber replaces its first entry in place; topics are all kept.
  const valid = new Map<string, Recipient>();
  const invalid: unknown[] = [];
  (Array.isArray(to) ? to : [to]).forEach((item, index) => {
    const recipient = parseRecipient(item);
    if (recipient === undefined) invalid.push(item);
    else if (typeof recipient === 'string') valid.set(`subscriber:${recipient}`, recipient);
    else if ('type' in recipient) valid.set(`topic:${index}`, recipient);
    else valid.set(`subscriber:${recipient.subscriberId}`, recipient);
  });
  return { valid: [...valid.values()], invalid };
}

function parseRecipient(item: unknown): Recipient | undefined {
  if (typeof item === 'string') return subscriberId.safeParse(item).success ? item : undefined;
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  // Only `type: 'Topic'` makes a topic; any other object is a subscriber (as in the reference).
  const schema = (item as { type?: unknown }).type === 'Topic' ? topicRecipientSchema : subscriberDefinitionSchema;
  const parsed = schema.safeParse(item);
  return parsed.success ? parsed.data : undefined;
}
