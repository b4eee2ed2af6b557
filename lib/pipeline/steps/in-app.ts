import type { MessageButton, MessageCta } from '../../messages/model.ts';
import { loadTemplates, renderTemplate } from '../../workflows/templates.ts';
import { afterFailure, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import { providerSelected } from './provider-selected.ts';
import { mayHaveSockets } from '../../live/presence.ts';
import { cachedInAppIntegration } from '../read-cache.ts';
import { newMessage } from './message.ts';
import { trackActionUrls } from '../../tracking/track-content.ts';
import { messageIdOf } from '../message-id.ts';
import { loadSanitizer, safeHtml, safeUrl, type UrlKind } from './sanitize.ts';

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
    return {
      status: 'failed',
      details: [detail(DETAILS.noIntegration, 'Failed', {}, now)],
      job: { error: DETAILS.noIntegration },
      after: afterFailure(step),
    };
  }
  const selected = providerSelected(integration, now);

  await Promise.all([loadSanitizer(), loadTemplates()]);
  let content: ReturnType<typeof render>;
  try {
    content = render(step.controlValues, context.variables, context.verbatim === true);
  } catch (error) {
    return {
      status: 'failed',
      details: [selected, detail(DETAILS.contentFailed, 'Failed', { raw: { error: (error as Error).message } }, now)],
      job: { error: (error as Error).message, providerId: integration.providerId },
      after: afterFailure(step),
    };
  }
  // Action URLs tracked when the environment opts in (lib/engagement); the message keeps the originals in `links`.
  const target = {
    scope,
    channel: 'in_app' as const,
    subscriberId: context.notification.subscriberId,
    messageId: messageIdOf(context.job),
  };
  const { cta, links } = await trackActionUrls(target, content.cta);
  const message = newMessage(context, 'in_app', integration, { ...content, cta, ...(links && { links }) });
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

// Subject, body and button labels are HTML to the inbox, avatar and redirects are URLs: each is
// sanitized after Liquid (sanitize.ts) unless the step sets `disableOutputSanitization`, and a
// URL that goes somewhere a link must not is left out. `data` is passed on as rendered: it is
// the app's own data, like the payload the message also carries.
function render(values: Record<string, unknown>, variables: Record<string, unknown>, verbatim: boolean) {
  const sanitize = values.disableOutputSanitization !== true;
  // A code-first step's values are the bridge's content, already rendered (steps/bridge.ts).
  const text = (v: unknown) => (typeof v === 'string' ? (verbatim ? v : renderTemplate(v, variables)) : undefined);
  const html = (v: unknown) => {
    const rendered = text(v);
    return rendered === undefined || !sanitize ? rendered : safeHtml(rendered, 'in-app');
  };
  const url = (v: unknown, kind: UrlKind) => {
    const rendered = text(v);
    return rendered === undefined || !sanitize ? rendered : safeUrl(rendered, kind);
  };
  const buttons: MessageButton[] = [];
  for (const [type, action] of [
    ['primary', values.primaryAction],
    ['secondary', values.secondaryAction],
  ] as const) {
    const a = action as Action | undefined;
    if (!a?.label) continue;
    const to = a.redirect?.url ? url(a.redirect.url, 'link') : undefined;
    buttons.push({
      type,
      content: html(a.label)!,
      ...(to !== undefined && { url: to }),
      ...(a.redirect?.target && { target: a.redirect.target }),
    });
  }
  const redirect = values.redirect as Action['redirect'] | undefined;
  const redirectTo = redirect?.url ? url(redirect.url, 'link') : undefined;
  const cta: MessageCta = {
    ...(redirectTo !== undefined && {
      type: 'redirect' as const,
      data: { url: redirectTo, ...(redirect?.target && { target: redirect.target }) },
    }),
    action: { status: 'pending', buttons, result: {} },
  };
  const subject = html(values.subject);
  const avatar = url(values.avatar, 'image');
  return {
    content: html(values.body) ?? '',
    ...(subject !== undefined && { subject }),
    ...(avatar !== undefined && { avatar }),
    ...(values.data !== undefined && {
      data: verbatim ? (values.data as Record<string, unknown>) : renderData(values.data as Record<string, unknown>, variables),
    }),
    cta,
  };
}

/** String values of `data` are templates too. */
function renderData(data: Record<string, unknown>, variables: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? renderTemplate(v, variables) : v]));
}
