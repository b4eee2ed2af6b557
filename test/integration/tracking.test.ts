import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { ENV, tableName } from '#lib/config.ts';
import { NOT_FOUND_PAGE } from '#lib/http/pages.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import { openToken } from '#lib/tracking/token.ts';
import { createTestOrg, startTestApi, type ApiClient, type TestOrg } from '../support/api.ts';
import { activity, createWorkflow, messagesOf, rand, settledOne, trigger, WAIT } from '../support/pipeline.ts';
import { startFakeApi, type FakeApi } from '../support/provider-servers.ts';

// Link and open tracking end to end (docs/engagement.md): an email sent through the pipeline to
// the demo provider's outbox carries tracked links and an open pixel; following a link counts the
// click on the message and redirects to exactly the original URL; the pixel records the first
// open; each emits its webhook once, verified with `standardwebhooks` and stamped with the
// click's or open's own time. Forged, replayed and expired clicks; the settings per environment.
// The headline scenario, both ways: "send an SMS if the email was not opened within the limit",
// a delay waiting for the email's open and an SMS step conditioned on it.

vi.setConfig({ testTimeout: 120_000 });

let api: LocalApi;
let org: TestOrg;
let client: ApiClient;
/** The customer's site (where links lead) and its webhook receiver. */
let site: FakeApi;

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

beforeAll(async () => {
  [api, site] = await Promise.all([startTestApi(), startFakeApi()]);
  org = await createTestOrg(api.url);
  client = org.dev.client;
  const res = await client.put(`/v1/environments/${org.dev.id}`, {
    tracking: { opens: { email: true }, links: { sms: true, in_app: true } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.tracking).toEqual({ links: { email: true, in_app: true, chat: false, sms: true }, opens: { email: true } });
});
afterAll(async () => {
  await Promise.all([api?.close(), site?.close()]);
});

interface Outgoing {
  to: string;
  content: string;
  subject?: string;
}

/** What the demo provider delivered to `to` (its outbox, DELIVERY_SINK_DIR). */
async function outbox(channel: 'email' | 'sms', to: string): Promise<Outgoing[]> {
  const text = await readFile(join(process.env[ENV.deliverySinkDir]!, `${channel}.jsonl`), 'utf8').catch(() => '');
  return text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Outgoing)
    .filter((r) => r.to === to);
}

/** A webhook endpoint for `types` on the site; its deliveries verified with `standardwebhooks`. */
async function endpoint(types: string[]) {
  const path = `/hook-${rand()}`;
  const res = await client.post('/v2/webhooks/endpoints', { url: `${site.url}${path}`, eventTypes: types });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const hook = new Webhook(res.body.secret as string);
  return () =>
    site.requests
      .filter((r) => r.path === path)
      .map(
        (r) =>
          hook.verify(r.text, {
            'webhook-id': String(r.headers['svix-id']),
            'webhook-timestamp': String(r.headers['svix-timestamp']),
            'webhook-signature': String(r.headers['svix-signature']),
          }) as any,
      );
}

const follow = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { redirect: 'manual', headers: { 'user-agent': CHROME, ...headers } });

/** The tracked URLs in what was sent, in order. */
const trackedIn = (content: string, path: '/t/' | '/o/') =>
  [...content.matchAll(new RegExp(`https?://[^"'\\s]+${path}[A-Za-z0-9_-]+`, 'g'))].map((m) => m[0]);

/** The local path of a tracked URL on this file's gateway (the stack's gateway wrote it; every gateway serves it). */
const onOurGateway = (url: string) => `${api.url}${new URL(url).pathname}`;

async function messageNow(subscriberId: string, channel: string, id: string): Promise<any> {
  return (await messagesOf(client, subscriberId, channel)).find((m) => m._id === id);
}

/** Sends an email with `body` to a new subscriber; the message, what the outbox got, and the transaction. */
async function sendEmail(body: string) {
  const workflowId = await createWorkflow(client, [
    { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hi', body } },
  ]);
  const subscriberId = `sub-${rand()}`;
  const email = `${subscriberId}@example.test`;
  const transactionId = await trigger(client, workflowId, { subscriberId, email });
  const item = await settledOne(client, transactionId);
  expect(item.jobs[0].status, JSON.stringify(item.jobs[0])).toBe('completed');
  const [message] = await messagesOf(client, subscriberId, 'email');
  const [sent] = await vi.waitFor(async () => {
    const found = await outbox('email', email);
    expect(found).toHaveLength(1);
    return found;
  }, WAIT);
  return { message, sent: sent!, subscriberId, transactionId, workflowId };
}

describe('link tracking', () => {
  it('a click counts once as the first, redirects to exactly the original URL, adds a detail and emits link_clicked once', async () => {
    const first = await endpoint(['message.link_clicked', 'message.sent']);
    const every = await endpoint(['message.link_reclicked']);
    const landing = `${site.url}/landing?a=1&b=two%20words#top`;
    const body =
      `<p><a href="${landing.replace(/&/g, '&amp;')}">Reset</a> ` +
      '<a href="mailto:help@acme.test">mail</a> <a href="tel:+15550100">call</a> ' +
      `<a href="${site.url}/unsubscribe?u=1">Unsubscribe</a></p>`;
    const { message, sent, subscriberId, transactionId } = await sendEmail(body);

    // What went out: the link replaced, mailto, tel and unsubscribe untouched; the message keeps the original.
    const [tracked, ...more] = trackedIn(sent.content, '/t/');
    expect(more).toEqual([]);
    expect(sent.content).not.toContain('/landing');
    expect(sent.content).toContain('href="mailto:help@acme.test"');
    expect(sent.content).toContain('href="tel:+15550100"');
    expect(sent.content).toContain(`href="${site.url}/unsubscribe?u=1"`);
    expect(message.links).toEqual([landing]);
    expect(message.content).toContain(landing.replace(/&/g, '&amp;'));
    expect(message).not.toHaveProperty('clicked');
    // The token reveals nothing: no id of the message, subscriber or environment in it.
    const token = tracked!.split('/t/')[1]!;
    for (const id of [message._id, subscriberId, org.dev.id, org.id])
      expect(Buffer.from(token, 'base64url').toString('latin1')).not.toContain(id);

    const res = await follow(onOurGateway(tracked!));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(landing);
    expect(res.headers.get('cache-control')).toContain('no-store');

    const clicked = await vi.waitFor(async () => {
      const m = await messageNow(subscriberId, 'email', message._id);
      expect(m.clickCount).toBe(1);
      return m;
    }, WAIT);
    expect(Date.parse(clicked.clicked)).toBeGreaterThan(Date.parse(message.createdAt));

    const events = await vi.waitFor(() => {
      const got = first();
      expect(got.map((e) => e.type).sort()).toEqual(['message.link_clicked', 'message.sent']);
      return got;
    }, WAIT);
    const click = events.find((e) => e.type === 'message.link_clicked');
    expect(click.data.object).toMatchObject({ _id: message._id, clicked: clicked.clicked, clickCount: 1 });
    expect(click.data.link).toEqual({ url: landing });
    // Item 6: each event carries its change's own time, to the millisecond.
    expect(click.timestamp).toBe(clicked.clicked);
    expect(events.find((e) => e.type === 'message.sent').timestamp).toBe(message.updatedAt);

    // A replayed click: counted, the first time unchanged, the redirect the same; link_clicked
    // stays one, the opt-in per-click event goes to the endpoint that asked for it.
    const again = await follow(onOurGateway(tracked!));
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe(landing);
    const reclick = await vi.waitFor(() => {
      const got = every();
      expect(got).toHaveLength(1);
      return got[0];
    }, WAIT);
    const after = await messageNow(subscriberId, 'email', message._id);
    expect(after).toMatchObject({ clicked: clicked.clicked, clickCount: 2 });
    expect(reclick).toMatchObject({ type: 'message.link_reclicked', timestamp: after.lastClickedAt });
    expect(first().filter((e) => e.type === 'message.link_clicked')).toHaveLength(1);

    // The activity feed shows the clicks as details and the message's engagement on its job.
    const item = await settledOne(client, transactionId);
    expect(item.jobs[0].executionDetails.filter((d: any) => d.detail === 'Link clicked by the recipient')).toHaveLength(2);
    expect(item.jobs[0].message).toMatchObject({ _id: message._id, clicked: clicked.clicked, clickCount: 2, seen: false, read: false });
  });

  it('a forged or altered token, or one of an open pixel, leads to a plain 404 page and counts nothing', async () => {
    const { message, sent, subscriberId } = await sendEmail(`<a href="${site.url}/a">A</a>`);
    const [tracked] = trackedIn(sent.content, '/t/');
    const [pixel] = trackedIn(sent.content, '/o/');
    const token = tracked!.split('/t/')[1]!;
    const flipped = token.slice(0, 20) + (token[20] === 'A' ? 'B' : 'A') + token.slice(21);
    const candidates = [
      flipped,
      token.slice(0, -2),
      `${token}AA`,
      Buffer.from(JSON.stringify([1, 'c', org.id, org.dev.id, subscriberId, message._id, 0, 4102444800])).toString('base64url'),
      pixel!.split('/o/')[1]!,
      message._id,
      'x',
    ];
    for (const candidate of candidates) {
      const res = await follow(`${api.url}/t/${candidate}`);
      expect(res.status, candidate).toBe(404);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toBe(NOT_FOUND_PAGE);
    }
    // A redirect target can never come from the request.
    const open = await follow(`${api.url}/t/${encodeURIComponent('https://evil.test/')}`);
    expect(open.status).toBe(404);
    expect((await messageNow(subscriberId, 'email', message._id)).clickCount).toBeUndefined();
  });

  it('a click on an expired message, or with a token past its time, leads to the 404 page', async () => {
    const { message, sent, subscriberId } = await sendEmail(`<a href="${site.url}/b">B</a>`);
    const [tracked] = trackedIn(sent.content, '/t/');
    const token = tracked!.split('/t/')[1]!;
    const opened = await openToken(token);
    expect(opened).toMatchObject({ kind: 'click', messageId: message._id, subscriberId });
    // The token stops with the message's retention.
    expect(await openToken(token, new Date(opened!.expires * 1000 + 1000))).toBeUndefined();

    // The message past its retention, not yet deleted by DynamoDB's TTL.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.message(org.dev.scope, subscriberId, message._id),
        UpdateExpression: 'SET #ttl = :past',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 60 },
      }),
    );
    const res = await follow(onOurGateway(tracked!));
    expect(res.status).toBe(404);
    expect(await res.text()).toBe(NOT_FOUND_PAGE);
    expect((await messageNow(subscriberId, 'email', message._id)).clickCount).toBeUndefined();
  });

  it('tracks sms links when the environment opts in; an environment that turns email links off sends them as written', async () => {
    const workflowId = await createWorkflow(client, [
      { name: 'Text', stepId: 'text', type: 'sms', controlValues: { body: 'Your code: https://acme.test/c?x=1. Reply STOP' } },
    ]);
    const subscriberId = `sub-${rand()}`;
    const phone = `+1555${Math.floor(Math.random() * 1e7)
      .toString()
      .padStart(7, '0')}`;
    await settledOne(client, await trigger(client, workflowId, { subscriberId, phone }));
    const [sms] = await vi.waitFor(async () => {
      const found = await outbox('sms', phone);
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    expect(sms!.content).toMatch(/^Your code: https?:\/\/[^ ]+\/t\/[A-Za-z0-9_-]+\. Reply STOP$/);
    const [message] = await messagesOf(client, subscriberId, 'sms');
    expect(message).toMatchObject({ content: 'Your code: https://acme.test/c?x=1. Reply STOP', links: ['https://acme.test/c?x=1'] });

    const prod = org.prod.client;
    const off = await prod.put(`/v1/environments/${org.prod.id}`, { tracking: { links: { email: false } } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.data.tracking.links.email).toBe(false);
    const mailFlow = await createWorkflow(prod, [
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Hi', body: '<a href="https://acme.test/plain">x</a>' } },
    ]);
    const to = `sub-${rand()}@example.test`;
    await settledOne(prod, await trigger(prod, mailFlow, { subscriberId: `p-${rand()}`, email: to }));
    const [plain] = await vi.waitFor(async () => {
      const found = await outbox('email', to);
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    expect(plain!.content).toContain('href="https://acme.test/plain"');
    expect(plain!.content).not.toMatch(/\/[to]\/[A-Za-z0-9_-]{40,}/);
  });

  it('tracks in-app action URLs on opt-in: the inbox gets tracked ones, the message keeps the originals', async () => {
    const target = `${site.url}/orders/7?from=inbox`;
    const workflowId = await createWorkflow(client, [
      {
        name: 'Inbox',
        stepId: 'inbox',
        type: 'in_app',
        controlValues: { body: 'Order shipped', redirect: { url: target }, primaryAction: { label: 'Track', redirect: { url: target } } },
      },
    ]);
    const subscriberId = `sub-${rand()}`;
    await settledOne(client, await trigger(client, workflowId, { subscriberId }));
    const [message] = await messagesOf(client, subscriberId, 'in_app');
    expect(message.links).toEqual([target]);
    const tracked = message.cta.data.url as string;
    expect(tracked).toMatch(/\/t\/[A-Za-z0-9_-]+$/);
    expect(message.cta.action.buttons[0].url).toBe(tracked);
    const res = await follow(onOurGateway(tracked));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(target);
    expect(await messageNow(subscriberId, 'in_app', message._id)).toMatchObject({ clickCount: 1, clicked: expect.any(String) });
  });

  it('refuses tracking settings that are not booleans', async () => {
    const res = await client.put(`/v1/environments/${org.dev.id}`, { tracking: { links: { email: 'yes' } } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toBeDefined();
  });
});

describe('open tracking', () => {
  it("the pixel records the first open once and emits message.opened with the open's time; prefetches record nothing", async () => {
    const opens = await endpoint(['message.opened']);
    const { message, sent, subscriberId, transactionId } = await sendEmail('<p>Digest</p>');
    const [pixel, ...more] = trackedIn(sent.content, '/o/');
    expect(more).toEqual([]);
    expect(sent.content).toMatch(/<img src="[^"]+\/o\/[A-Za-z0-9_-]+" width="1" height="1"/);

    // Apple Mail Privacy Protection's proxy and a scanner: the image, and nothing recorded.
    for (const ua of ['Mozilla/5.0', 'Mozilla/5.0 (compatible; Mimecast URL Protect)']) {
      const res = await follow(onOurGateway(pixel!), { 'user-agent': ua });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/gif');
      expect(Buffer.from(await res.arrayBuffer())).toHaveLength(42);
    }
    expect((await messageNow(subscriberId, 'email', message._id)).opened).toBeUndefined();

    const res = await follow(onOurGateway(pixel!));
    expect(res.status).toBe(200);
    const opened = (await messageNow(subscriberId, 'email', message._id)).opened;
    expect(opened).toEqual(expect.any(String));
    await follow(onOurGateway(pixel!));
    expect((await messageNow(subscriberId, 'email', message._id)).opened).toBe(opened);

    const [event] = await vi.waitFor(() => {
      const got = opens();
      expect(got).toHaveLength(1);
      return got;
    }, WAIT);
    expect(event).toMatchObject({ type: 'message.opened', timestamp: opened, data: { object: { _id: message._id, opened } } });
    const item = await settledOne(client, transactionId);
    expect(item.jobs[0].executionDetails.filter((d: any) => d.detail === 'Email opened by the recipient')).toHaveLength(1);
    expect(item.jobs[0].message).toMatchObject({ opened });

    // A pixel that is not ours is the same image.
    const forged = await follow(`${api.url}/o/not-a-token`);
    expect(forged.status).toBe(200);
    expect(forged.headers.get('content-type')).toBe('image/gif');
  });
});

describe('engagement in the numbers over time', () => {
  it("a workflow's email opened and clicked counts in its day's numbers, once each however often", async () => {
    const { sent, workflowId } = await sendEmail(`<p><a href="${site.url}/read-more">Read more</a></p>`);
    const [link] = trackedIn(sent.content, '/t/');
    const [pixel] = trackedIn(sent.content, '/o/');
    for (const url of [pixel!, pixel!, link!, link!]) expect([200, 302]).toContain((await follow(onOurGateway(url))).status);

    // Counted from the message's changes by the engagement consumer: once each, though the pixel
    // loaded twice and the link was followed twice.
    const stats = await vi.waitFor(async () => {
      const res = await client.get(`/v1/engagement/stats?workflowId=${workflowId}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.workflows[0]).toMatchObject({ triggered: 1, channels: { email: { sent: 1, opened: 1, clicked: 1 } } });
      return res.body;
    }, WAIT);
    expect(stats.days).toHaveLength(1);
    expect(stats.days[0]).toMatchObject({ date: new Date().toISOString().slice(0, 10), workflowId });
  });
});

/** A phone number of its own for each case (the outbox is shared by every test of the run). */
const newPhone = () =>
  `+1555${Math.floor(Math.random() * 1e7)
    .toString()
    .padStart(7, '0')}`;

/** Email, then wait up to `seconds` for its open, then an SMS that is sent only when it was not opened. */
async function unopenedNudgeFlow(seconds: number) {
  const workflowId = await createWorkflow(client, [
    { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Your invoice', body: '<p>Your invoice is ready</p>' } },
    {
      name: 'Wait for the open',
      stepId: 'wait',
      type: 'delay',
      controlValues: { type: 'regular', amount: seconds, unit: 'seconds', waitFor: { stepId: 'mail', event: 'opened' } },
    },
    // The step runs when its rule is true: when the email was not opened.
    {
      name: 'Text',
      stepId: 'text',
      type: 'sms',
      controlValues: { body: 'Your invoice is ready', skip: { '!': { var: 'steps.mail.opened' } } },
    },
  ]);
  const subscriberId = `sub-${rand()}`;
  const email = `${subscriberId}@example.test`;
  const phone = newPhone();
  const transactionId = await trigger(client, workflowId, { subscriberId, email, phone });
  return { subscriberId, email, phone, transactionId };
}

const detailsOf = (job: any): string[] => job.executionDetails.map((d: any) => d.detail);

describe.concurrent('an SMS when the email was not opened in time', () => {
  it('the email opened through its pixel wakes the delay early and the SMS is skipped, even after the limit', async () => {
    const LIMIT_S = 25;
    const started = Date.now();
    const { email, phone, transactionId } = await unopenedNudgeFlow(LIMIT_S);
    const [sent] = await vi.waitFor(async () => {
      const found = await outbox('email', email);
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    await vi.waitFor(async () => expect((await activity(client, transactionId))[0].jobs[1].status).toBe('delayed'), WAIT);
    const [pixel] = trackedIn(sent!.content, '/o/');
    expect((await follow(onOurGateway(pixel!))).status).toBe(200);

    const notification = await settledOne(client, transactionId);
    // Well before the limit: the stream's record of the open woke the delay.
    expect(Date.now() - started).toBeLessThan((LIMIT_S - 5) * 1000);
    expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'canceled']);
    expect(detailsOf(notification.jobs[1])).toContain('Delay ended: the subscriber opened the message');
    expect(detailsOf(notification.jobs[2])).toContain('Step was skipped based on steps conditions');
    // The delay's timed message comes at the limit too: it finds the job done, and no SMS goes out.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + (LIMIT_S + 2) * 1000 - Date.now())));
    expect((await activity(client, transactionId))[0].jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'canceled']);
    expect(await outbox('sms', phone)).toEqual([]);
  });

  it('the email not opened: the delay waits out its limit, then the SMS is sent once', async () => {
    const LIMIT_S = 3;
    const started = Date.now();
    const { phone, transactionId } = await unopenedNudgeFlow(LIMIT_S);
    const notification = await settledOne(client, transactionId);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LIMIT_S * 1000);
    expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed', 'completed', 'completed']);
    expect(detailsOf(notification.jobs[1]).some((d) => d.startsWith('Delay ended'))).toBe(false);
    const sms = await vi.waitFor(async () => {
      const found = await outbox('sms', phone);
      expect(found).toHaveLength(1);
      return found;
    }, WAIT);
    expect(sms[0]!.content).toBe('Your invoice is ready');
  });
});
