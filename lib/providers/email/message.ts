import type { Delivery } from '../provider.ts';
import { objectOr } from '../deep-merge.ts';

// One email as every email provider sends it, from a delivery: the trigger's overrides win, then
// the step, then the integration's credentials, as the reference's createMailData does. Override
// values come from API callers untyped: a value of the wrong type is ignored, never a crash.

export interface Address {
  email: string;
  name?: string;
}

export interface EmailMessage {
  from: Address;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo?: string;
  subject: string;
  html: string;
  text?: string;
  headers: Record<string, string>;
  /** Provider-specific extra data (SendGrid custom_args, Postmark Metadata, ...). */
  customData: Record<string, unknown>;
  ipPoolName?: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

const list = (value: unknown): string[] => {
  const values = Array.isArray(value) ? value : [value];
  return values.map(text).filter((v): v is string => v !== undefined);
};

/** When neither the step, the overrides nor the integration name a sender. */
export function defaultFrom(credentials: Record<string, unknown>): string {
  return `no-reply@${text(credentials.domain) ?? 'localhost'}`;
}

export function emailMessage(delivery: Delivery): EmailMessage {
  const overrides = delivery.overrides ?? {};
  const credentials = delivery.integration.credentials as Record<string, unknown>;
  const to = [...new Set([delivery.to, ...list(overrides.to)])];
  const name = text(overrides.senderName) ?? text(delivery.senderName) ?? text(credentials.senderName);
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(objectOr(overrides.headers))) {
    if (typeof value === 'string' || typeof value === 'number') headers[key] = String(value);
  }
  const replyTo = text(overrides.replyTo);
  const plain = text(overrides.text);
  const ipPoolName = text(overrides.ipPoolName) ?? text(credentials.ipPoolName);
  return {
    from: {
      email: text(overrides.from) ?? text(delivery.from) ?? text(credentials.from) ?? defaultFrom(credentials),
      ...(name && { name }),
    },
    to,
    cc: list(overrides.cc),
    bcc: list(overrides.bcc),
    ...(replyTo && { replyTo }),
    subject: text(overrides.subject) ?? delivery.subject ?? '',
    html: delivery.content,
    ...(plain && { text: plain }),
    headers,
    customData: objectOr(overrides.customData),
    ...(ipPoolName && { ipPoolName }),
  };
}

/** `"Name" <email>`, or the bare address without a name. */
export function formatAddress(address: Address): string {
  if (!address.name) return address.email;
  return `"${address.name.replace(/["\\]/g, '\\$&').replace(/[\r\n]+/g, ' ')}" <${address.email}>`;
}

/**
 * The JSON fields APIs in SendGrid's style share (MailerSend, Mailtrap): sender and recipients as
 * `{email}` objects, `reply_to`, subject, html and text.
 */
export function addressObjectFields(mail: EmailMessage): Record<string, unknown> {
  const emails = (list: string[]) => list.map((email) => ({ email }));
  return {
    from: mail.from,
    to: emails(mail.to),
    ...(mail.cc.length > 0 && { cc: emails(mail.cc) }),
    ...(mail.bcc.length > 0 && { bcc: emails(mail.bcc) }),
    ...(mail.replyTo && { reply_to: { email: mail.replyTo } }),
    subject: mail.subject,
    html: mail.html,
    ...(mail.text && { text: mail.text }),
  };
}
