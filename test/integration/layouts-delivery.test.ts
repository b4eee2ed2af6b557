import { load } from 'cheerio';
import { EMPTY_LAYOUT_DOCUMENT } from '#lib/layouts/model.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { primarySmtpIntegration } from '../support/smtp-integration.ts';
import {
  createEnvironmentWithoutLayouts,
  createTestOrg,
  startTestApi,
  type ApiClient,
  type TestEnv,
  type TestOrg,
} from '../support/api.ts';
import { createWorkflow, rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/provider-servers.ts';
import { HTML_VECTORS, URL_VECTORS, dangersIn } from '../support/xss.ts';

// Email steps sent in the layout they name, end to end: a trigger through the API, the queues and
// the consumers to an SMTP server, whose received mail is parsed as a mail client would. Which
// layout: the step's (omitted = the environment's default, null = none), a per-trigger override,
// the built-in one where the environment has no layout; an unknown one fails the step.

let api: LocalApi;
let smtp: FakeSmtp;
let org: TestOrg;
let dev: TestEnv;

beforeAll(async () => {
  [api, smtp] = await Promise.all([startTestApi(), startFakeSmtp()]);
  org = await createTestOrg(api.url);
  dev = org.dev;
  await primarySmtpIntegration(dev.client, smtp);
  // Links are checked as the step wrote them: email link tracking (on by default, docs/engagement.md) off here.
  expect((await dev.client.put(`/v1/environments/${dev.id}`, { tracking: { links: { email: false } } })).status).toBe(200);
});
afterAll(async () => {
  await Promise.all([api?.close(), smtp?.close()]);
});

const BRAND =
  '<html><body><header>Hello {{subscriber.firstName}}</header><main>{{ content }}</main>' +
  '<footer>{{context.tenant.id}}</footer></body></html>';
const OTHER = '<html><body><aside>Other layout</aside>{{content}}</body></html>';

async function layout(client: ApiClient, layoutId: string, body: string): Promise<void> {
  const res = await client.post('/v2/layouts', { layoutId, name: layoutId, controlValues: { email: { editorType: 'html', body } } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const mailStep = (controls: Record<string, unknown> = {}) => ({
  name: 'Mail',
  stepId: 'mail',
  type: 'email',
  controlValues: { subject: 'Hi', body: '<p class="body">Order {{payload.id}}</p>', ...controls },
});

/**
 * Triggers the workflow to a new subscriber (with `profile` over the default one); the settled job and the
 * mail received, if any, parsed.
 */
async function send(client: ApiClient, workflowId: string, extra: Record<string, unknown> = {}, profile: Record<string, unknown> = {}) {
  const subscriberId = `sub-${rand()}`;
  const email = `${subscriberId}@example.test`;
  const txid = await triggerWith(client, {
    name: workflowId,
    to: { subscriberId, email, firstName: '<b>Ada</b>', ...profile },
    payload: { id: 42 },
    ...extra,
  });
  const job = (await settledOne(client, txid)).jobs[0];
  const received = smtp.received.find((r) => r.envelope.to.includes(email));
  return { job, html: received && String(received.mail.html), $: received && load(String(received.mail.html)) };
}

const details = (job: any) => job.executionDetails.map((d: any) => [d.detail, d.status]);

describe('the layout an email is sent in', () => {
  it('is the environment’s default when the step names none, and follows edits of that default', async () => {
    const workflowId = await createWorkflow(dev.client, [mailStep()]);
    const first = await send(dev.client, workflowId);
    expect(first.job.status).toBe('completed');
    expect(details(first.job)).toContainEqual(['Layout selected', 'Success']);
    expect(JSON.parse(first.job.executionDetails.find((d: any) => d.detail === 'Layout selected').raw)).toEqual({
      name: 'Default layout',
      layoutId: 'default-layout',
    });
    // The provisioned default is the layout emails were sent in before: the body centred, CSS inlined.
    expect(first.$!('.email-layout .email-content p.body').text()).toBe('Order 42');
    expect(first.$!('.email-content').attr('style')).toContain('max-width: 600px');

    const edited = await dev.client.put('/v2/layouts/default-layout', {
      name: 'Default layout',
      controlValues: { email: { editorType: 'html', body: '<html><body><div id="edited">{{content}}</div></body></html>' } },
    });
    expect(edited.status).toBe(200);
    const second = await send(dev.client, workflowId);
    expect(second.$!('#edited p.body').text()).toBe('Order 42');
    expect(second.$!('.email-content')).toHaveLength(0);
  });

  it('is the layout the step names, its Liquid rendered with subscriber and context values escaped', async () => {
    await layout(dev.client, 'brand', BRAND);
    const workflowId = await createWorkflow(dev.client, [mailStep({ layoutId: 'brand' })]);
    const { job, $ } = await send(dev.client, workflowId, { context: { tenant: 'acme' } });
    expect(job.status).toBe('completed');
    expect(JSON.parse(job.executionDetails.find((d: any) => d.detail === 'Layout selected').raw)).toEqual({
      name: 'brand',
      layoutId: 'brand',
    });
    expect($!('header').text()).toBe('Hello <b>Ada</b>');
    expect($!('header b')).toHaveLength(0);
    expect($!('main p.body').text()).toBe('Order 42');
    expect($!('footer').text()).toBe('acme');
    expect($!('.email-content')).toHaveLength(0);
  });

  it('is none when the step says layoutId: null', async () => {
    const workflowId = await createWorkflow(dev.client, [mailStep({ layoutId: null })]);
    const { job, html } = await send(dev.client, workflowId);
    expect(job.status).toBe('completed');
    expect(details(job).map(([d]: string[]) => d)).not.toContain('Layout selected');
    expect(html!.trim()).toBe('<p class="body">Order 42</p>');
  });

  it('is the trigger’s override: per step, then for the email channel, then layoutIdentifier', async () => {
    await layout(dev.client, 'other', OTHER);
    await layout(dev.client, 'brand-2', BRAND);
    const workflowId = await createWorkflow(dev.client, [mailStep({ layoutId: 'brand-2' })]);
    const byStep = await send(dev.client, workflowId, {
      overrides: { steps: { mail: { layoutId: 'other' } }, channels: { email: { layoutId: null } } },
    });
    expect(byStep.$!('aside').text()).toBe('Other layout');
    const byChannel = await send(dev.client, workflowId, {
      overrides: { channels: { email: { layoutId: null } }, layoutIdentifier: 'other' },
    });
    expect(byChannel.html!.trim()).toBe('<p class="body">Order 42</p>');
    const byIdentifier = await send(dev.client, workflowId, { overrides: { layoutIdentifier: 'other' } });
    expect(byIdentifier.$!('aside').text()).toBe('Other layout');
    // An empty override falls through to the step's layout.
    const empty = await send(dev.client, workflowId, { overrides: { steps: { mail: { layoutId: '' } } } });
    expect(empty.$!('header').text()).toBe('Hello <b>Ada</b>');
  });

  it('fails the step when the layout cannot be found, and sends nothing', async () => {
    const named = await createWorkflow(dev.client, [mailStep({ layoutId: 'ghost' })]);
    const stored = await dev.client.get(`/v2/workflows/${named}`);
    expect(stored.body.steps[0].issues.controls.layoutId).toHaveLength(1);
    const byStep = await send(dev.client, named);
    expect(byStep.job.status).toBe('failed');
    expect(details(byStep.job)).toContainEqual(['Layout not found', 'Failed']);
    expect(byStep.html).toBeUndefined();

    const byOverride = await send(dev.client, await createWorkflow(dev.client, [mailStep()]), {
      overrides: { layoutIdentifier: 'nowhere' },
    });
    expect(byOverride.job.status).toBe('failed');
    expect(JSON.parse(byOverride.job.executionDetails.find((d: any) => d.detail === 'Layout not found').raw)).toEqual({
      layoutId: 'nowhere',
    });
    expect(byOverride.html).toBeUndefined();
  });

  it('is sanitized with the body in it, unless the step opts out', async () => {
    await layout(
      dev.client,
      'risky',
      '<html><body><img src="x" onerror="alert(1)"><a href="javascript:alert(1)">x</a>{{content}}</body></html>',
    );
    const safe = await send(dev.client, await createWorkflow(dev.client, [mailStep({ layoutId: 'risky' })]));
    expect(safe.$!('[onerror]')).toHaveLength(0);
    expect(safe.$!('a').attr('href')).toBeUndefined();
    expect(safe.$!('p.body').text()).toBe('Order 42');
    const raw = await send(
      dev.client,
      await createWorkflow(dev.client, [mailStep({ layoutId: 'risky', disableOutputSanitization: true })]),
    );
    expect(raw.$!('img').attr('onerror')).toBe('alert(1)');
  });

  it('is the built-in layout in an environment made before layouts existed, which has none', async () => {
    const legacy = await createEnvironmentWithoutLayouts(api.url, org.id);
    await primarySmtpIntegration(legacy.client, smtp);
    const { job, $ } = await send(legacy.client, await createWorkflow(legacy.client, [mailStep()]));
    expect(job.status).toBe('completed');
    expect(details(job).map(([d]: string[]) => d)).not.toContain('Layout selected');
    expect($!('.email-layout .email-content p.body').text()).toBe('Order 42');
  });

  it('is the synced layout in the environment a workflow was synced to', async () => {
    await layout(dev.client, 'synced', OTHER.replace('Other layout', 'Synced layout'));
    const workflowId = await createWorkflow(dev.client, [mailStep({ layoutId: 'synced' })]);
    expect((await dev.client.put(`/v2/workflows/${workflowId}/sync`, { targetEnvironmentId: org.prod.id })).status).toBe(200);
    await primarySmtpIntegration(org.prod.client, smtp);
    expect((await org.prod.client.patch(`/v2/workflows/${workflowId}`, { active: true })).status).toBe(200);
    const { job, $ } = await send(org.prod.client, workflowId);
    expect(job.status).toBe('completed');
    expect($!('aside').text()).toBe('Synced layout');
  });
});

type Node = Record<string, unknown>;
const n = (type: string, attrs: Node = {}, content?: Node[]): Node => ({ type, attrs, ...(content && { content }) });
const t = (text: string): Node => ({ type: 'text', text });
const v = (id: string): Node => n('variable', { id, label: null, fallback: null, required: false, aliasFor: null });
const doc = (...content: Node[]) => JSON.stringify({ type: 'doc', content });

/** The reference's EMPTY_LAYOUT (text, slot, text) with a heading and a footer that show the subscriber. */
const BLOCK_LAYOUT = (() => {
  const empty = JSON.parse(EMPTY_LAYOUT_DOCUMENT) as { content: Node[] };
  return doc(
    n('heading', { level: 2, textAlign: 'center' }, [t('Hello '), v('subscriber.firstName')]),
    ...empty.content,
    n('button', { text: 'Your profile', url: 'subscriber.data.site', isUrlVariable: true }),
    n('footer', {}, [t('Sent to {{ subscriber.lastName }}')]),
  );
})();

async function blockLayout(client: ApiClient, layoutId: string, body: string, extra: Record<string, unknown> = {}): Promise<void> {
  const res = await client.post('/v2/layouts', {
    layoutId,
    name: layoutId,
    ...extra,
    controlValues: { email: { editorType: 'block', body } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const documentsIn = (html: string) => html.match(/<html[\s>]/gi)?.length ?? 0;

describe('block layouts', () => {
  beforeAll(() => blockLayout(dev.client, 'blocks', BLOCK_LAYOUT));

  it('draw an HTML step body in the slot, as HTML, with the layout’s own variables escaped', async () => {
    const workflowId = await createWorkflow(dev.client, [mailStep({ layoutId: 'blocks' })]);
    const { job, html, $ } = await send(
      dev.client,
      workflowId,
      {},
      { lastName: 'Lovelace & <i>co</i>', data: { site: 'https://acme.test/ada' } },
    );
    expect(job.status).toBe('completed');
    expect(documentsIn(html!)).toBe(1);
    expect($!('h2').text()).toBe('Hello <b>Ada</b>');
    expect($!('h2 b')).toHaveLength(0);
    // The body is markup, not text, and sits in a block (not inside a <p>, which a client would break open).
    expect($!('p.body').text()).toBe('Order 42');
    expect($!('p p')).toHaveLength(0);
    expect($!('p.body').parent().is('div')).toBe(true);
    expect(
      $!('a')
        .filter((_, a) => $!(a).text() === 'Your profile')
        .attr('href'),
    ).toBe('https://acme.test/ada');
    expect($!('p').last().text()).toBe('Sent to Lovelace & <i>co</i>');
    expect($!('i')).toHaveLength(0);
    // The EMPTY_LAYOUT's blank paragraphs either side of the slot; the heading's alignment kept.
    const slot = $!('p.body').parent();
    expect([slot.prev().text(), slot.next().text()]).toEqual(['\u00a0', '\u00a0']);
    expect($!('h2').attr('style')).toContain('text-align:center');
  });

  it('draw a block step body as a fragment inside the one document', async () => {
    const body = doc(
      n('paragraph', {}, [t('Order {{ payload.id }}')]),
      n('button', { text: 'Track', url: 'https://acme.test/track/{{payload.id}}' }),
    );
    const workflowId = await createWorkflow(dev.client, [mailStep({ layoutId: 'blocks', body })]);
    const { job, html, $ } = await send(dev.client, workflowId);
    expect(job.status).toBe('completed');
    expect(documentsIn(html!)).toBe(1);
    expect($!('body')).toHaveLength(1);
    expect($!('h2').text()).toBe('Hello <b>Ada</b>');
    expect($!('p').filter((_, p) => $!(p).text() === 'Order 42')).toHaveLength(1);
    expect(
      $!('a')
        .filter((_, a) => $!(a).text() === 'Track')
        .attr('href'),
    ).toBe('https://acme.test/track/42');
  });

  it('neutralise XSS in the subscriber fields the layout shows', async () => {
    const workflowId = await createWorkflow(dev.client, [mailStep({ layoutId: 'blocks' })]);
    const cases = HTML_VECTORS.map(([name, vector], i) => ({ name, vector, url: URL_VECTORS[i % URL_VECTORS.length]![1] }));
    const sent = await Promise.all(
      cases.map((c) => send(dev.client, workflowId, {}, { firstName: c.vector, lastName: c.vector, data: { site: c.url } })),
    );
    sent.forEach(({ job, html }, i) => {
      expect(job.status, cases[i]!.name).toBe('completed');
      expect(dangersIn(html!), cases[i]!.name).toEqual([]);
    });
  });

  it('honour disableOutputSanitization: the body’s markup is kept as written, the layout’s variables still escaped', async () => {
    const body = '<p class="body" onclick="track()">Order {{payload.id}}</p>';
    const raw = await send(
      dev.client,
      await createWorkflow(dev.client, [mailStep({ layoutId: 'blocks', body, disableOutputSanitization: true })]),
    );
    expect(raw.$!('p.body').attr('onclick')).toBe('track()');
    expect(raw.$!('h2 b')).toHaveLength(0);
    const safe = await send(dev.client, await createWorkflow(dev.client, [mailStep({ layoutId: 'blocks', body })]));
    expect(safe.$!('p.body').text()).toBe('Order 42');
    expect(safe.$!('p.body').attr('onclick')).toBeUndefined();
  });
});

describe('layout translations', () => {
  const TRANSLATED = doc(
    n('paragraph', {}, [v('content')]),
    n('footer', {}, [t('{{t.footer}}')]),
    n('paragraph', {}, [v('t.signoff')]),
    n('paragraph', {}, [t("{{ subscriber.lastName | append: 't.suffix' }}")]),
  );
  const EN = { footer: 'Sent with care', signoff: 'Bye "friend" \\ {{ subscriber.lastName }}', suffix: ' (EN)' };
  const ES = { footer: 'Enviado con cariño', suffix: ' (ES)' };
  let workflowId: string;

  async function upsert(layoutId: string, locale: string, content: Record<string, unknown>) {
    const res = await dev.client.post('/v2/translations', { resourceType: 'layout', resourceId: layoutId, locale, content });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const texts = ($: ReturnType<typeof load>) =>
    $('p')
      .map((_, p) => $(p).text())
      .get();
  const warnings = (job: any) => job.executionDetails.filter((d: any) => d.status === 'Warning').map((d: any) => JSON.parse(d.raw));

  beforeAll(async () => {
    await blockLayout(dev.client, 'translated', TRANSLATED, { isTranslationEnabled: true });
    await upsert('translated', 'en_US', EN);
    await upsert('translated', 'es_ES', ES);
    workflowId = await createWorkflow(dev.client, [mailStep({ layoutId: 'translated' })]);
  });

  it('render the subscriber’s locale, key by key falling back to the default locale', async () => {
    const { job, $ } = await send(dev.client, workflowId, {}, { locale: 'es-ES', lastName: 'Lovelace' });
    expect(job.status).toBe('completed');
    expect(warnings(job)).toEqual([]);
    // `signoff` is missing in es_ES: the default locale's, its quotes kept and its Liquid rendered.
    expect(texts($!)).toEqual(['Order 42', 'Enviado con cariño', 'Bye "friend" \\ Lovelace', 'Lovelace (ES)']);
  });

  it('render the default locale for a subscriber without one', async () => {
    const { $ } = await send(dev.client, workflowId, {}, { lastName: 'Lovelace' });
    expect(texts($!)).toEqual(['Order 42', 'Sent with care', 'Bye "friend" \\ Lovelace', 'Lovelace (EN)']);
  });

  it('render a key missing everywhere as the key, with a Warning detail', async () => {
    const html = '<html><body>{{content}}<footer>{{ t.nowhere }}</footer><aside>{{t.footer}}</aside></body></html>';
    const res = await dev.client.post('/v2/layouts', {
      layoutId: 'gaps',
      name: 'Gaps',
      isTranslationEnabled: true,
      controlValues: { email: { editorType: 'html', body: html } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await upsert('gaps', 'en_US', { footer: 'Sent with care' });
    const { job, $ } = await send(dev.client, await createWorkflow(dev.client, [mailStep({ layoutId: 'gaps' })]), {}, { locale: 'fr-FR' });
    expect(job.status).toBe('completed');
    expect($!('footer').text()).toBe('nowhere');
    expect($!('aside').text()).toBe('Sent with care');
    expect(warnings(job)).toEqual([{ keys: ['nowhere'], locale: 'fr_FR', defaultLocale: 'en_US', resourceType: 'layout' }]);
    expect(details(job)).toContainEqual([expect.stringContaining("'nowhere'"), 'Warning']);
  });

  it('are not rendered when the layout does not have translations enabled: {{t.key}} is empty', async () => {
    await blockLayout(dev.client, 'untranslated', TRANSLATED);
    await upsert('untranslated', 'en_US', EN);
    const { job, $ } = await send(
      dev.client,
      await createWorkflow(dev.client, [mailStep({ layoutId: 'untranslated' })]),
      {},
      { lastName: 'Lovelace' },
    );
    expect(warnings(job)).toEqual([]);
    expect(texts($!)).toEqual(['Order 42', '\u00a0', '\u00a0', 'Lovelacet.suffix']);
  });
});
