import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type ApiClient } from '../support/api.ts';
import { sinkRecords } from '../support/fault-run.ts';
import { primarySmtpIntegration } from '../support/smtp-integration.ts';
import { startFakeApi, startFakeSmtp, type FakeApi, type FakeSmtp } from '../support/provider-servers.ts';
import { HTML_VECTORS, URL_VECTORS, dangersIn, unsafeUrl } from '../support/xss.ts';
import { createWorkflow, messagesOf, rand } from '../support/pipeline.ts';

// What reaches people is safe by default, end to end: every XSS vector of the corpus is sent as
// a payload value through the API, the queues and both consumers (an in-app first step runs in
// the events consumer, a later one in the jobs consumer) into every rendered field of every
// channel, and checked where it arrives: the inbox (GET /v1/messages and the subscriber's feed),
// the mail the SMTP server received (parsed as a mail client would), the stored email, and what
// the sms, chat and push providers were sent. HTML is judged by parsing it as a browser does
// (test/support/xss.ts). Sms, chat and push bodies are plain text, delivered as rendered.

let api: LocalApi;
let client: ApiClient;
let fake: FakeApi;
let smtp: FakeSmtp;

const WAIT = { timeout: 120_000, interval: 500 };

beforeAll(async () => {
  [api, fake, smtp] = await Promise.all([startTestApi(), startFakeApi(), startFakeSmtp()]);
  const { dev } = await createTestOrg(api.url);
  client = dev.client;
  // Links are checked as the step wrote them: email link tracking (on by default, docs/engagement.md) off here.
  expect((await client.put(`/v1/environments/${dev.id}`, { tracking: { links: { email: false } } })).status).toBe(200);
  fake.reply = (request) =>
    request.path.startsWith('/push') ? { status: 200, body: { id: `push-${rand()}` } } : { status: 200, body: 'ok' };
  await primarySmtpIntegration(client, smtp);
  await integration({ providerId: 'slack', channel: 'chat', credentials: { applicationId: 'A1', clientId: 'C1', secretKey: 'S1' } });
  await integration({ providerId: 'push-webhook', channel: 'push', credentials: { webhookUrl: `${fake.url}/push`, secretKey: 'whsec' } });
});
afterAll(async () => {
  await Promise.all([api?.close(), fake?.close(), smtp?.close()]);
});

async function integration(body: Record<string, unknown>): Promise<any> {
  const res = await client.post('/v1/integrations', { active: true, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

interface Recipient {
  subscriberId: string;
  email: string;
  phone: string;
  token: string;
}

function recipient(): Recipient {
  const subscriberId = `sub-${rand()}`;
  return {
    subscriberId,
    email: `${subscriberId}@example.test`,
    phone: `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
    token: `tok-${subscriberId}`,
  };
}

/** One event per payload, each to a new subscriber with an email, a phone, a Slack webhook and a push token. */
async function triggerEach(workflowId: string, payloads: Record<string, unknown>[]): Promise<Recipient[]> {
  const recipients = payloads.map(() => recipient());
  const events = payloads.map((payload, i) => {
    const r = recipients[i]!;
    const channels = [
      { providerId: 'slack', credentials: { webhookUrl: `${fake.url}/slack/${r.subscriberId}` } },
      { providerId: 'push-webhook', credentials: { deviceTokens: [r.token] } },
    ];
    return { name: workflowId, to: { subscriberId: r.subscriberId, firstName: 'Ada', email: r.email, phone: r.phone, channels }, payload };
  });
  const res = await client.post('/v1/events/trigger/bulk', { events });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.map((r: any) => r.status)).toEqual(events.map(() => 'processed'));
  return recipients;
}

async function feedOf(subscriberId: string): Promise<any[]> {
  const res = await client.get(`/v1/subscribers/${subscriberId}/notifications/feed?limit=100`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Every job of each recipient's notification final, then what each channel delivered. */
async function deliveries(recipients: Recipient[], inAppSteps: number) {
  await vi.waitFor(async () => {
    for (const r of recipients) {
      const res = await client.get(`/v1/notifications?subscriberIds=${r.subscriberId}&limit=10`);
      expect(res.body.data).toHaveLength(1);
      for (const job of res.body.data[0].jobs) expect(job.status).toBe('completed');
    }
  }, WAIT);
  const sms = await sinkRecords('sms');
  return Promise.all(
    recipients.map(async (r) => {
      const inApp = await messagesOf(client, r.subscriberId, 'in_app');
      expect(inApp).toHaveLength(inAppSteps);
      return {
        inApp,
        feed: await feedOf(r.subscriberId),
        email: (await messagesOf(client, r.subscriberId, 'email'))[0],
        mail: smtp.received.find((m) => m.envelope.to.includes(r.email))?.mail,
        sms: sms.filter((s) => s.to === r.phone) as unknown as { content: string }[],
        chat: fake.requests.filter((q) => q.path === `/slack/${r.subscriberId}`).map((q) => q.json),
        push: fake.requests.filter((q) => q.path === '/push' && q.json?.target?.[0] === r.token).map((q) => q.json),
      };
    }),
  );
}

/** Everything unsafe in an in-app message as the inbox gets it: its HTML fields and its URLs. */
function unsafeInApp(message: any): string[] {
  const buttons: any[] = message.cta?.action?.buttons ?? [];
  return [
    ...dangersIn(message.content),
    ...dangersIn(message.subject ?? ''),
    ...buttons.flatMap((b) => dangersIn(b.content)),
    ...[message.avatar, message.cta?.data?.url, ...buttons.map((b) => b.url)]
      .map(unsafeUrl)
      .filter((why): why is string => why !== undefined),
  ];
}

const X = '{{payload.x}}';
const IN_APP_CONTROLS = {
  subject: X,
  body: `<p>${X}</p>`,
  avatar: X,
  primaryAction: { label: X, redirect: { url: X, target: '_blank' } },
  secondaryAction: { label: X, redirect: { url: X } },
  redirect: { url: X, target: '_self' },
};

describe('every rendered field of every channel', () => {
  const corpus = [...HTML_VECTORS, ...URL_VECTORS];
  let delivered: Awaited<ReturnType<typeof deliveries>>;

  beforeAll(async () => {
    const workflowId = await createWorkflow(client, [
      { name: 'Inbox first', stepId: 'inbox-first', type: 'in_app', controlValues: IN_APP_CONTROLS },
      // `| raw` puts the vector into the HTML as markup, for the sanitizer to meet (escaping: below).
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: X, body: '<div>{{payload.x | raw}}</div>' } },
      { name: 'Sms', stepId: 'sms', type: 'sms', controlValues: { body: X } },
      { name: 'Chat', stepId: 'chat', type: 'chat', controlValues: { body: X } },
      { name: 'Push', stepId: 'push', type: 'push', controlValues: { subject: X, body: X } },
      { name: 'Inbox later', stepId: 'inbox-later', type: 'in_app', controlValues: IN_APP_CONTROLS },
    ]);
    const recipients = await triggerEach(
      workflowId,
      corpus.map(([, x]) => ({ x })),
    );
    delivered = await deliveries(recipients, 2);
  }, 180_000);

  const cases = corpus.map(([name, x], i) => ({ name, x, i }));

  it.each(cases)('in-app, both consumers, messages and feed: nothing of $name runs', ({ i }) => {
    const { inApp, feed } = delivered[i]!;
    expect(feed).toHaveLength(2);
    for (const message of [...inApp, ...feed]) expect(unsafeInApp(message)).toEqual([]);
  });

  it.each(cases)('email, stored and received: nothing of $name runs; the subject is the plain-text header', ({ i, x }) => {
    const { email, mail } = delivered[i]!;
    expect(dangersIn(email.content)).toEqual([]);
    expect(mail).toBeDefined();
    expect(dangersIn(String(mail!.html))).toEqual([]);
    expect(email.subject).toBe(x);
    // A header holds no line break: nodemailer writes one as a space.
    expect(mail!.subject).toBe(x.replace(/\n/g, ' ').trim());
  });

  it.each(cases)('sms, chat and push: $name delivered as the text it is', ({ i, x }) => {
    const { sms, chat, push } = delivered[i]!;
    expect(sms.map((s) => s.content)).toEqual([x]);
    expect(chat).toEqual([{ text: x }]);
    expect(push.map((p) => [p.title, p.content])).toEqual([[x, x]]);
  });
});

describe('what is not an attack comes through', () => {
  it('keeps ordinary in-app formatting, links, images and URLs as rendered, and plain text as it is', async () => {
    const workflowId = await createWorkflow(client, [
      {
        name: 'Inbox',
        stepId: 'inbox',
        type: 'in_app',
        controlValues: {
          subject: '{{payload.who}} & co. replied',
          body:
            '<p>Hi <b>{{subscriber.firstName}}</b>, see ' +
            '<a href="https://acme.test/orders/{{payload.id}}?tab=a&amp;b=c" target="_blank">order {{payload.id}}</a> ' +
            '<img src="https://cdn.acme.test/p.png" alt="p" style="width: 24px"></p>',
          avatar: 'https://cdn.acme.test/avatars/{{payload.id}}.png',
          primaryAction: { label: 'Open <b>now</b>', redirect: { url: '/orders/{{payload.id}}?from=inbox&x=1' } },
          redirect: { url: 'https://acme.test/orders/{{payload.id}}', target: '_blank' },
        },
      },
    ]);
    const [r] = await triggerEach(workflowId, [{ who: 'Tom', id: 42 }]);
    const message = (await deliveries([r!], 1))[0]!.inApp[0];
    const rendered =
      '<p>Hi <b>Ada</b>, see <a href="https://acme.test/orders/42?tab=a&amp;b=c" target="_blank">order 42</a> ' +
      '<img src="https://cdn.acme.test/p.png" alt="p" style="width: 24px"></p>';
    expect(load(message.content).html()).toBe(load(rendered).html());
    expect(message).toMatchObject({
      subject: 'Tom & co. replied',
      avatar: 'https://cdn.acme.test/avatars/42.png',
      cta: {
        type: 'redirect',
        data: { url: 'https://acme.test/orders/42', target: '_blank' },
        action: { buttons: [{ type: 'primary', content: 'Open <b>now</b>', url: '/orders/42?from=inbox&x=1' }] },
      },
    });
  });

  it('mails a table layout with inline styles and a <style> block as written, payload values as text', async () => {
    const workflowId = await createWorkflow(client, [
      {
        name: 'Mail',
        stepId: 'mail',
        type: 'email',
        controlValues: {
          subject: 'Order for {{payload.name}}',
          body:
            '<style>.btn { background-color: #0055ff; }</style>' +
            '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" bgcolor="#ffffff"><tr>' +
            '<td align="center" style="padding: 24px"><p>Hello {{payload.name}}</p>' +
            '<a class="btn" href="https://acme.test/orders/{{payload.id}}">Open</a> ' +
            '<img src="https://cdn.acme.test/logo.png" alt="Acme" width="120"></td></tr></table>',
        },
      },
    ]);
    const name = '<b>Tom & Jerry</b> <img src=x onerror=alert(1)>';
    const [r] = await triggerEach(workflowId, [{ name, id: 7 }]);
    const { mail, email } = (await deliveries([r!], 0))[0]!;
    expect(mail!.subject).toBe(`Order for ${name}`);
    const $ = load(String(mail!.html));
    // The value is text: no <b> or <img> came from it, and it reads as sent.
    expect($('p').text()).toBe(`Hello ${name}`);
    expect($('p b, p img')).toHaveLength(0);
    expect($('table').attr('bgcolor')).toBe('#ffffff');
    expect($('table').attr('cellpadding')).toBe('0');
    expect($('td').attr('align')).toBe('center');
    expect($('td').attr('style')).toContain('padding: 24px');
    expect($('a.btn').attr('href')).toBe('https://acme.test/orders/7');
    // The <style> rule was inlined by the email layout, so it was kept by the sanitizer.
    expect($('a.btn').attr('style')).toContain('background-color: #0055ff');
    expect($('img').attr('src')).toBe('https://cdn.acme.test/logo.png');
    expect(load(email.content)('p').text()).toBe(`Hello ${name}`);
  });
});

describe('disableOutputSanitization: true', () => {
  it('stores and sends in-app and email content as rendered', async () => {
    const attack = '<img src=x onerror=alert(1)>';
    const workflowId = await createWorkflow(client, [
      { name: 'Inbox', stepId: 'inbox', type: 'in_app', controlValues: { ...IN_APP_CONTROLS, disableOutputSanitization: true } },
      {
        name: 'Mail',
        stepId: 'mail',
        type: 'email',
        controlValues: { subject: X, body: '<div>{{payload.x | raw}}</div>', layoutId: null, disableOutputSanitization: true },
      },
    ]);
    const [forHtml, forUrl] = await triggerEach(workflowId, [{ x: attack }, { x: 'javascript:alert(1)' }]);
    const [html, url] = await deliveries([forHtml!, forUrl!], 1);
    expect(html!.inApp[0]).toMatchObject({ content: `<p>${attack}</p>`, subject: attack });
    expect(url!.inApp[0]).toMatchObject({ avatar: 'javascript:alert(1)', cta: { data: { url: 'javascript:alert(1)' } } });
    expect(html!.email.content).toBe(`<div>${attack}</div>`);
    expect(dangersIn(String(html!.mail!.html))).toEqual(['onerror=alert(1)']);
  });
});
