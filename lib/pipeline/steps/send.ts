import type { Channel } from '../../integrations/catalogue.ts';
import type { StoredIntegration } from '../../integrations/repository.ts';
import type { StoredMessage } from '../../messages/model.ts';
import { ProviderError } from '../../providers/provider.ts';
import { deliveryProvider } from '../../providers/registry.ts';
import { selectIntegration, type SelectOptions } from '../../providers/select.ts';
import { failoverCandidates, sendWithFailover, type Attempt } from '../../providers/failover.ts';
import type { ConditionVariables } from '../../workflows/step-conditions.ts';
import { loadTemplates, renderTemplate } from '../../workflows/templates.ts';
import { afterFailure, next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import { providerSelected } from './provider-selected.ts';
import { chooseLayout } from '../../layouts/select.ts';
import { translateLayout } from '../translate-step.ts';
import { emailBody, emailHtml, loadEmailContent } from './email-content.ts';
import { newMessage } from './message.ts';
import { mapConcurrently } from '../../concurrency.ts';
import { chatDestination, chatPushTargets, destinationCredentials, type ChannelTarget, type SkippedEntry } from './channel-targets.ts';
import { markRevokedConnections, noDestination, removeDeadTokens, skipDetails } from './chat-push-outcome.ts';
import { providerOverrides } from './provider-overrides.ts';
import { failoverDetails } from './failover-details.ts';
import { trackContent } from '../../tracking/track-content.ts';
import { messageIdOf } from '../message-id.ts';

// Email, sms, chat and push steps: choose the integration, find where to send, render, and hand
// the send to the runner, which holds the job under a lease while the provider is called, so a
// redelivered message never sends a second time. Missing destinations end the step as the
// reference does: a `warning` message and a canceled job.

const ERROR_IDS: Record<string, string> = {
  email: 'mail_unexpected_error',
  sms: 'unexpected_sms_error',
  chat: 'unexpected_chat_error',
  push: 'unexpected_push_error',
};

/** Push to many devices: sends run side by side, so all of them end within the send lease. */
const SEND_CONCURRENCY = 10;

/** Where one send goes: for chat and push, a channel target as found (channel-targets.ts). */
interface Target extends ChannelTarget {
  /** Email and sms: the integrations to fail over to (lib/providers/failover.ts), read when due. */
  failover?: () => Promise<StoredIntegration[]>;
}

const noFailover = () => Promise.resolve([]);

export async function decideSend(context: JobContext): Promise<Decision> {
  const { step, now, notification } = context;
  const channel = step.type as Exclude<Channel, 'in_app'>;
  const overrides = (notification.overrides[channel] ?? {}) as Record<string, unknown>;

  const targets = await targetsOf(context, channel, overrides);
  if (targets.kind === 'no-integration') {
    return {
      status: 'failed',
      details: [detail(DETAILS.noIntegration, 'Failed', {}, now)],
      job: { error: DETAILS.noIntegration },
      after: afterFailure(step),
    };
  }
  if (targets.kind === 'missing') {
    return channel === 'chat' || channel === 'push'
      ? noDestination(context, channel, targets.skipped ?? [])
      : missingDestination(context, channel, targets.integration);
  }

  const first = targets.list[0]!.integration;
  const selected = providerSelected(first, now);

  // Email: the layout it is sent in (lib/layouts/select.ts); one that cannot be found fails the step.
  const layout = channel === 'email' ? await chooseLayout(context.scope, step, notification.overrides) : undefined;
  if (layout?.kind === 'missing') {
    const error = `Layout ${layout.layoutId} not found`;
    return {
      status: 'failed',
      details: [selected, detail(DETAILS.layoutNotFound, 'Failed', { raw: { layoutId: layout.layoutId } }, now)],
      job: { error },
      after: afterFailure(step),
    };
  }
  const layoutDetails =
    layout?.kind === 'layout'
      ? [detail(DETAILS.layoutSelected, 'Success', { raw: { name: layout.name, layoutId: layout.layoutId } }, now)]
      : [];
  let layoutEmail = layout?.kind === 'layout' || layout?.kind === 'built-in' ? layout.email : undefined;
  // A layout with translations enabled renders its own `{{t.key}}` (translate-step.ts).
  if (layout?.kind === 'layout' && layoutEmail) {
    const translated = await translateLayout(context, layout, layoutEmail);
    layoutEmail = translated.email;
    layoutDetails.push(...translated.details);
  }

  await (channel === 'email' ? loadEmailContent() : loadTemplates());
  let rendered: { subject?: string; content: string };
  // What the provider gets: for email the whole HTML document (layout, inlined CSS); the message
  // keeps the rendered body. The step's own sender comes before the integration's.
  let outgoing: { content: string; from?: string; senderName?: string };
  try {
    // A code-first step's values are the bridge's content, already rendered (steps/bridge.ts).
    const text = (v: unknown) => (typeof v === 'string' ? (context.verbatim ? v : renderTemplate(v, context.variables)) : undefined);
    const subject = text(step.controlValues.subject);
    // Email bodies are HTML (email-content.ts); sms, chat and push bodies are plain text.
    const content =
      channel === 'email'
        ? emailBody(step.controlValues, context.variables, { inLayout: layoutEmail !== undefined, verbatim: context.verbatim })
        : (text(step.controlValues.body) ?? '');
    rendered = { ...(subject !== undefined && { subject }), content };
    // v2 steps name their sender in `from: {email, name}`; v1 templates carry `senderName`.
    const sender = (step.controlValues.from ?? {}) as { email?: unknown; name?: unknown };
    const from = text(sender.email);
    const senderName = text(sender.name) || text(step.controlValues.senderName);
    outgoing = {
      content: channel === 'email' ? emailHtml(rendered.content, step.controlValues, context.variables, layoutEmail) : rendered.content,
      ...(from && { from }),
      ...(senderName && { senderName }),
    };
  } catch (error) {
    const reason = (error as Error).message;
    return {
      status: 'failed',
      details: [selected, ...layoutDetails, detail(DETAILS.contentFailed, 'Failed', { raw: { error: reason } }, now)],
      job: { error: reason },
      after: afterFailure(step),
    };
  }

  // Link and open tracking (lib/engagement): what goes out carries tracked links; the message
  // keeps the rendered content and the original URLs.
  const tracked =
    channel === 'push'
      ? { content: outgoing.content }
      : await trackContent(
          { scope: context.scope, channel, subscriberId: notification.subscriberId, messageId: messageIdOf(context.job) },
          outgoing.content,
          channel === 'email' ? 'html' : 'text',
        );
  outgoing = { ...outgoing, content: tracked.content };

  const send = async (leaseUntil: Date): Promise<Decision> => {
    const deliver = async (target: Target, integration: StoredIntegration): Promise<Attempt> => {
      const provider = deliveryProvider(integration.providerId);
      try {
        if (!provider) throw new ProviderError(`Provider ${integration.providerId} cannot deliver yet`);
        // Overrides and sender resolution per provider: lib/providers/email|sms/message.ts.
        const merged = providerOverrides(notification.overrides, channel, integration.providerId, step.stepId);
        const own = destinationCredentials(target);
        const channelCredentials = own && { channelCredentials: own };
        const connection = target.connection && { connection: target.connection };
        return {
          integration,
          result: await provider.send({
            channel,
            to: target.to,
            ...rendered,
            ...outgoing,
            ...merged,
            ...channelCredentials,
            ...connection,
            integration,
          }),
        };
      } catch (error) {
        return { integration, error: error instanceof ProviderError ? error : new ProviderError((error as Error).message) };
      }
    };
    const results = await mapConcurrently(targets.list, SEND_CONCURRENCY, async (target) => {
      const attempts = await sendWithFailover(target.integration, target.failover ?? noFailover, leaseUntil, (integration) =>
        deliver(target, integration),
      );
      const { integration, result, error } = attempts.at(-1)!;
      return { target: { ...target, integration }, result, error, failedOver: attempts.slice(0, -1) };
    });
    const done = new Date();
    const sent = results.find((r) => r.result);
    const failed = results.find((r) => r.error);
    // The message and the job name the integration that delivered (or failed last).
    const used = results[0]!.target.integration;
    const message = newMessage({ ...context, now: done }, channel, used, {
      ...rendered,
      ...destinationFields(channel, targets.list),
      ...(tracked.links && { links: tracked.links }),
      ...(sent
        ? { identifier: sent.result!.id }
        : { status: 'error', errorId: ERROR_IDS[channel], errorText: failed?.error?.message ?? 'Send failed' }),
    });
    const details = [
      detail(DETAILS.messageCreated, 'Pending', { messageId: message._id, providerId: used.providerId }, done),
      ...skipDetails(targets.skipped ?? [], done, message._id),
    ];
    for (const r of results) {
      details.push(...failoverDetails(r.failedOver, r.target.integration, message._id, done));
      details.push(
        r.result
          ? detail(
              DETAILS.messageSent,
              'Success',
              { messageId: message._id, providerId: r.target.integration.providerId, raw: r.result.raw ?? { id: r.result.id } },
              done,
            )
          : detail(
              DETAILS.providerError,
              'Failed',
              { messageId: message._id, providerId: r.target.integration.providerId, raw: r.error?.raw ?? { message: r.error?.message } },
              done,
            ),
      );
    }
    if (channel === 'push') details.push(...(await removeDeadTokens(context, results, message._id, done)));
    if (channel === 'chat') details.push(...(await markRevokedConnections(context, results, message._id, done)));
    const failure = channel === 'chat' ? DETAILS.allChatFailed : message.errorText!;
    return sent
      ? { status: 'completed', details, job: { messageId: message._id, providerId: used.providerId }, message, after: next }
      : {
          status: 'failed',
          details,
          job: { messageId: message._id, providerId: used.providerId, error: failure },
          message,
          after: afterFailure(step),
        };
  };
  return { status: 'running', details: [selected, ...layoutDetails], job: { providerId: first.providerId }, after: next, send };
}

type Targets =
  | { kind: 'ok'; list: Target[]; skipped?: SkippedEntry[] }
  | { kind: 'missing'; integration?: StoredIntegration; skipped?: SkippedEntry[] }
  | { kind: 'no-integration' };

async function targetsOf(context: JobContext, channel: Exclude<Channel, 'in_app'>, overrides: Record<string, unknown>): Promise<Targets> {
  const { scope, notification, subscriber } = context;
  if (channel === 'email' || channel === 'sms') {
    const options: SelectOptions = {
      ...(typeof overrides.integrationIdentifier === 'string' && { identifier: overrides.integrationIdentifier }),
      ...(notification.tenant && {
        tenant: context.variables.tenant as Record<string, unknown>,
        variables: context.variables as ConditionVariables,
      }),
    };
    const integration = await selectIntegration(scope, channel, options);
    if (!integration) return { kind: 'no-integration' };
    const to =
      channel === 'email'
        ? ((overrides.toRecipient as string | undefined) ?? subscriber?.email)
        : ((notification.payload.phone as string | undefined) ?? subscriber?.phone);
    const failover = () => failoverCandidates(scope, channel, integration, options);
    return to ? { kind: 'ok', list: [{ integration, to, failover }] } : { kind: 'missing', integration };
  }
  // Chat and push go wherever the subscriber has registered credentials for a provider of the channel.
  const { targets, skipped } = await chatPushTargets(context, channel, overrides);
  if (targets.length > 0) return { kind: 'ok', list: targets, skipped };
  return { kind: 'missing', skipped };
}

function destinationFields(channel: Channel, list: Target[]): Partial<StoredMessage> {
  if (channel === 'email') return { email: list[0]!.to };
  if (channel === 'sms') return { phone: list[0]!.to };
  if (channel === 'chat') return chatDestination(list[0]!);
  return { deviceTokens: list.map((t) => t.to) };
}

/** No email or phone: a warning message, and the step is canceled (chat and push: chat-push-outcome.ts). */
function missingDestination(context: JobContext, channel: 'email' | 'sms', integration?: StoredIntegration): Decision {
  const { now } = context;
  const [errorId, errorText, text] =
    channel === 'email'
      ? ['mail_unexpected_error', 'Subscriber does not have an email address', DETAILS.missingEmail]
      : ['no_subscriber_phone', 'Subscriber does not have active phone', DETAILS.missingPhone];
  if (!integration) {
    return { status: 'canceled', details: [detail(text, 'Warning', {}, now)], after: next };
  }
  const message = newMessage(context, channel, integration, { status: 'warning', errorId, errorText });
  return {
    status: 'canceled',
    details: [detail(text, 'Failed', { messageId: message._id }, now)],
    job: { messageId: message._id, providerId: integration.providerId },
    message,
    after: next,
  };
}
