import { findProvider } from '../../integrations/providers.ts';
import type { MessageButton, MessageCta } from '../../messages/model.ts';
import { renderTemplate } from '../../workflows/templates.ts';
import { afterFailure, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import { mayHaveSockets } from '../../live/presence.ts';
import { cachedInAppIntegration } from '../read-cache.ts';
import { newMessage } from './message.ts';

// An in-app step writes the message into the subscriber's inbox. The message's id is the job's,
// so a run repeated after a crash finds it there: the inbox gets it exactly once. It is announced
// to the subscriber's open sockets when the profile says some may be open.

interface Action {
  label?: string;
  redirect?: { url?: string; target?: string };
}

export async function decideInApp(context: JobContext): Promise<Decision> {
  const { scope, step, now } = context;
  const integration = await cachedInAppIntegration(scope);
  if (!integration) {
    return { status: 'failed', details: [detail(DETAILS.noIntegration, 'Failed', {}, now)], job: { error: DETAILS.noIntegration }, after: afterFailure(step) };
  }
  const selected = detail(DETAILS.providerSelected(findProvider(integration.providerId)?.displayName ?? integration.providerId), 'Pending', {
    providerId: integration.providerId,
    raw: { providerId: integration.providerId, identifier: integration.identifier, name: integration.name, _environmentId: integration._environmentId, _id: integration._id },
  }, now);

  let content: ReturnType<typeof render>;
  try {
    content = render(step.controlValues, context.variables);
  } catch (error) {
    return {
      status: 'failed',
      details: [selected, detail(DETAILS.contentFailed, 'Failed', { raw: { error: (error as Error).message } }, now)],
      job: { error: (error as Error).message, providerId: integration.providerId },
      after: afterFailure(step),
    };
  }
  const message = newMessage(context, 'in_app', integration, content);
  return {
    status: 'completed',
    details: [
      selected,
      detail(DETAILS.messageCreated, 'Pending', { messageId: message._id, providerId: integration.providerId }, now),
      detail(DETAILS.messageSent, 'Success', { messageId: message._id, providerId: integration.providerId }, now),
    ],
    job: { messageId: message._id, providerId: integration.providerId },
    message,
    announce: mayHaveSockets(context.liveUntil, now),
    after: { kind: 'next' },
  };
}

function render(values: Record<string, unknown>, variables: Record<string, unknown>) {
  const text = (v: unknown) => (typeof v === 'string' ? renderTemplate(v, variables) : undefined);
  const buttons: MessageButton[] = [];
  for (const [type, action] of [['primary', values.primaryAction], ['secondary', values.secondaryAction]] as const) {
    const a = action as Action | undefined;
    if (!a?.label) continue;
    buttons.push({
      type,
      content: text(a.label)!,
      ...(a.redirect?.url && { url: text(a.redirect.url)! }),
      ...(a.redirect?.target && { target: a.redirect.target }),
    });
  }
  const redirect = values.redirect as Action['redirect'] | undefined;
  const cta: MessageCta = {
    ...(redirect?.url && { type: 'redirect' as const, data: { url: text(redirect.url)!, ...(redirect.target && { target: redirect.target }) } }),
    action: { status: 'pending', buttons, result: {} },
  };
  const subject = text(values.subject);
  const avatar = text(values.avatar);
  return {
    content: text(values.body) ?? '',
    ...(subject !== undefined && { subject }),
    ...(avatar !== undefined && { avatar }),
    ...(values.data !== undefined && { data: renderData(values.data as Record<string, unknown>, variables) }),
    cta,
  };
}

/** String values of `data` are templates too. */
function renderData(data: Record<string, unknown>, variables: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? renderTemplate(v, variables) : v]));
}
