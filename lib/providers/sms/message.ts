import type { Delivery } from '../provider.ts';
import { objectOr } from '../deep-merge.ts';

// One text message as every SMS provider sends it: the trigger's overrides win for the sender,
// then the step, then the integration's `from`, as in the reference.

export interface SmsMessage {
  to: string;
  from?: string;
  content: string;
  customData: Record<string, unknown>;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** `integrationSender`: a provider's own sender credential (Unifonic's senderId), before `from`. */
export function smsMessage(delivery: Delivery, integrationSender?: unknown): SmsMessage {
  const overrides = delivery.overrides ?? {};
  const credentials = delivery.integration.credentials as Record<string, unknown>;
  const from = text(overrides.from) ?? text(delivery.from) ?? text(integrationSender) ?? text(credentials.from);
  return { to: delivery.to, ...(from && { from }), content: delivery.content, customData: objectOr(overrides.customData) };
}
