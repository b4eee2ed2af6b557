import { findProvider, type Channel } from '../../integrations/providers.ts';
import { getIntegration, type StoredIntegration } from '../../integrations/repository.ts';
import type { StoredMessage } from '../../messages/model.ts';
import { ProviderError, type DeliveryResult } from '../../providers/provider.ts';
import { deliveryProvider } from '../../providers/registry.ts';
import { selectIntegration } from '../../providers/select.ts';
import { renderTemplate } from '../../workflows/templates.ts';
import { afterFailure, next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import { newMessage, putMessage } from './message.ts';

// Email, sms, chat and push steps: choose the integration, find where to send, render, and hand
// the send to the runner, which holds the job under a lease while the provider is called, so a
// redelivered message never sends a second time. Missing destinations end the step as the
// reference does: a `warning` message and a canceled job.

const ERROR_IDS: Record<string, string> = { email: 'mail_unexpected_error', sms: 'unexpected_sms_error', chat: 'unexpected_chat_error', push: 'unexpected_push_error' };

interface Target {
  integration: StoredIntegration;
  to: string;
}

export async function decideSend(context: JobContext): Promise<Decision> {
  const { step, now, notification } = context;
  const channel = step.type as Exclude<Channel, 'in_app'>;
  const overrides = (notification.overrides[channel] ?? {}) as Record<string, unknown>;

  const targets = await targetsOf(context, channel, overrides);
  if (targets.kind === 'no-integration') {
    return { status: 'failed', details: [detail(DETAILS.noIntegration, 'Failed', {}, now)], job: { error: DETAILS.noIntegration }, after: afterFailure(step) };
  }
  if (targets.kind === 'missing') return missingDestination(context, channel, targets.integration);

  const first = targets.list[0]!.integration;
  const selected = detail(DETAILS.providerSelected(findProvider(first.providerId)?.displayName ?? first.providerId), 'Pending', {
    providerId: first.providerId,
    raw: { providerId: first.providerId, identifier: first.identifier, name: first.name, _environmentId: first._environmentId, _id: first._id },
  }, now);

  let rendered: { subject?: string; content: string };
  try {
    const text = (v: unknown) => (typeof v === 'string' ? renderTemplate(v, context.variables) : undefined);
    const subject = text(step.controlValues.subject);
    rendered = { ...(subject !== undefined && { subject }), content: text(step.controlValues.body) ?? '' };
  } catch (error) {
    const reason = (error as Error).message;
    return { status: 'failed', details: [selected, detail(DETAILS.contentFailed, 'Failed', { raw: { error: reason } }, now)], job: { error: reason }, after: afterFailure(step) };
  }

  const send = async (): Promise<Decision> => {
    const results: { target: Target; result?: DeliveryResult; error?: ProviderError }[] = [];
    for (const target of targets.list) {
      const provider = deliveryProvider(target.integration.providerId);
      try {
        if (!provider) throw new ProviderError(`Provider ${target.integration.providerId} cannot deliver yet`);
        const credentials = target.integration.credentials as Record<string, unknown>;
        const from = (overrides.from as string | undefined) ?? (credentials.from as string | undefined);
        const senderName = (overrides.senderName as string | undefined) ?? (credentials.senderName as string | undefined);
        results.push({ target, result: await provider.send({ channel, to: target.to, ...rendered, ...(from && { from }), ...(senderName && { senderName }), integration: target.integration }) });
      } catch (error) {
        results.push({ target, error: error instanceof ProviderError ? error : new ProviderError((error as Error).message) });
      }
    }
    const done = new Date();
    const sent = results.find((r) => r.result);
    const failed = results.find((r) => r.error);
    const message = newMessage({ ...context, now: done }, channel, first, {
      ...rendered,
      ...destinationFields(channel, targets.list),
      ...(sent ? { identifier: sent.result!.id } : { status: 'error', errorId: ERROR_IDS[channel], errorText: failed?.error?.message ?? 'Send failed' }),
    });
    const details = [detail(DETAILS.messageCreated, 'Pending', { messageId: message._id, providerId: first.providerId }, done)];
    for (const r of results) {
      details.push(
        r.result
          ? detail(DETAILS.messageSent, 'Success', { messageId: message._id, providerId: r.target.integration.providerId, raw: r.result.raw ?? { id: r.result.id } }, done)
          : detail(DETAILS.providerError, 'Failed', { messageId: message._id, providerId: r.target.integration.providerId, raw: r.error?.raw ?? { message: r.error?.message } }, done),
      );
    }
    return sent
      ? { status: 'completed', details, job: { messageId: message._id, providerId: first.providerId }, also: [putMessage(message)], after: next }
      : { status: 'failed', details, job: { messageId: message._id, providerId: first.providerId, error: message.errorText! }, also: [putMessage(message)], after: afterFailure(step) };
  };
  return { status: 'running', details: [selected], job: { providerId: first.providerId }, after: next, send };
}

type Targets = { kind: 'ok'; list: Target[] } | { kind: 'missing'; integration?: StoredIntegration } | { kind: 'no-integration' };

async function targetsOf(context: JobContext, channel: Exclude<Channel, 'in_app'>, overrides: Record<string, unknown>): Promise<Targets> {
  const { scope, notification, subscriber } = context;
  if (channel === 'email' || channel === 'sms') {
    const integration = await selectIntegration(scope, channel, {
      ...(typeof overrides.integrationIdentifier === 'string' && { identifier: overrides.integrationIdentifier }),
      ...(notification.tenant && { tenant: notification.tenant as unknown as Record<string, unknown> }),
    });
    if (!integration) return { kind: 'no-integration' };
    const to =
      channel === 'email'
        ? ((overrides.toRecipient as string | undefined) ?? subscriber?.email)
        : ((notification.payload.phone as string | undefined) ?? subscriber?.phone);
    return to ? { kind: 'ok', list: [{ integration, to }] } : { kind: 'missing', integration };
  }
  // Chat and push go wherever the subscriber has registered credentials for a provider of the channel.
  const list: Target[] = [];
  for (const settings of subscriber?.channels ?? []) {
    if (findProvider(settings.providerId)?.channel !== channel) continue;
    const integration = await getIntegration(scope.organizationId, settings._integrationId);
    if (!integration?.active) continue;
    if (channel === 'chat') {
      const url = (overrides.webhookUrl as string | undefined) ?? settings.credentials.webhookUrl;
      if (url) list.push({ integration, to: url });
    } else {
      for (const token of settings.credentials.deviceTokens ?? []) list.push({ integration, to: token });
    }
  }
  return list.length > 0 ? { kind: 'ok', list } : { kind: 'missing' };
}

function destinationFields(channel: Channel, list: Target[]): Partial<StoredMessage> {
  if (channel === 'email') return { email: list[0]!.to };
  if (channel === 'sms') return { phone: list[0]!.to };
  if (channel === 'chat') return { directWebhookUrl: list[0]!.to };
  return { deviceTokens: list.map((t) => t.to) };
}

/** No email, phone, chat channel or push token: a warning message, and the step is canceled. */
function missingDestination(context: JobContext, channel: Exclude<Channel, 'in_app'>, integration?: StoredIntegration): Decision {
  const { now } = context;
  const [errorId, errorText, text] =
    channel === 'email'
      ? ['mail_unexpected_error', 'Subscriber does not have an email address', DETAILS.missingEmail]
      : channel === 'sms'
        ? ['no_subscriber_phone', 'Subscriber does not have active phone', DETAILS.missingPhone]
        : channel === 'push'
          ? ['unexpected_push_error', DETAILS.noPushTokens, DETAILS.noChatChannel]
          : ['no_subscriber_chat_channel_id', DETAILS.noChatChannel, DETAILS.noChatChannel];
  if (!integration) {
    return { status: 'canceled', details: [detail(text, 'Warning', {}, now)], after: next };
  }
  const message = newMessage(context, channel, integration, { status: 'warning', errorId, errorText });
  return {
    status: 'canceled',
    details: [detail(text, channel === 'email' || channel === 'sms' ? 'Failed' : 'Warning', { messageId: message._id }, now)],
    job: { messageId: message._id, providerId: integration.providerId },
    also: [putMessage(message)],
    after: next,
  };
}
