import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { createTestOrg, startTestApi, type ApiClient } from '../support/api.ts';
import { primarySmtpIntegration } from '../support/smtp-integration.ts';
import { doc, n, t, v } from '../support/block-document.ts';
import { WAIT, createWorkflow, messagesOf, rand, settledOne, trigger } from '../support/pipeline.ts';
import { startFakeSmtp, type FakeSmtp } from '../support/provider-servers.ts';
import { HTML_VECTORS, URL_VECTORS, dangersIn } from '../support/xss.ts';

// Block-editor emails end to end: a v2 workflow whose email step's body is the editor's JSON is
// triggered through the API, the queues and the pipeline, and the mail the SMTP server received
// is parsed as a mail client would and checked for what the author designed. Bad documents are
// refused on write, naming the step's field.

let api: LocalApi;
let client: ApiClient;
let smtp: FakeSmtp;

beforeAll(async () => {
  [api, smtp] = await Promise.all([startTestApi(), startFakeSmtp()]);
  const { dev } = await createTestOrg(api.url);
  client = dev.client;
  await primarySmtpIntegration(client, smtp);
  // Links are checked as the step wrote them: email link tracking (on by default, docs/engagement.md) off here.
  expect((await client.put(`/v1/environments/${dev.id}`, { tracking: { links: { email: false } } })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await Promise.all([api?.close(), smtp?.close()]);
});

/** The mail the SMTP server received for this address, once it has. */
async function mailTo(address: string) {
  return vi.waitFor(() => {
    const found = smtp.received.find((m) => m.envelope.to.includes(address));
    expect(found).toBeDefined();
    return found!.mail;
  }, WAIT);
}

const ORDER = doc(
  n('logo', { src: 'https://cdn.acme.test/logo.png', alt: 'Acme', size: 'md', alignment: 'center' }),
  n('heading', { level: 1, textAlign: 'center' }, [t('Thanks, '), v('subscriber.firstName', { fallback: 'friend' }), t('!')]),
  n('paragraph', {}, [t('Your order '), t('#{{ payload.orderId }}', [{ type: 'bold' }]), t(' has shipped.')]),
  n('section', { showIfKey: 'payload.isMember', backgroundColor: '#f7f7f7' }, [n('paragraph', {}, [t('Members ship free.')])]),
  n('repeat', { each: 'payload.items', iterations: 2 }, [
    n('columns', {}, [
      n('column', { width: 70 }, [n('paragraph', {}, [v('payload.items.name')])]),
      n('column', { width: 30 }, [n('paragraph', { textAlign: 'right' }, [v('current.price')])]),
    ]),
  ]),
  n('horizontalRule'),
  n('button', {
    text: 'Track it',
    url: 'https://acme.test/orders/{{ payload.orderId }}',
    alignment: 'center',
    buttonColor: '#0055ff',
    borderRadius: 'smooth',
  }),
  n('footer', {}, [t('Questions? '), t('Write to us', [{ type: 'link', attrs: { href: 'mailto:help@acme.test' } }])]),
);

describe('a block-editor email step', () => {
  it('is mailed as the designed HTML: layout, blocks, repeat, show-if, columns, button', async () => {
    const workflowId = await createWorkflow(client, [
      {
        name: 'Mail',
        stepId: 'mail',
        type: 'email',
        controlValues: { subject: 'Order {{ payload.orderId }}', body: ORDER, editorType: 'block' },
      },
    ]);
    const subscriberId = `sub-${rand()}`;
    const email = `${subscriberId}@example.test`;
    const items = [
      { name: 'Pen', price: '$2' },
      { name: 'Ink <b>blue</b>', price: '$5' },
      { name: 'Pad', price: '$3' },
    ];
    const transactionId = await trigger(
      client,
      workflowId,
      { subscriberId, email, firstName: 'Ada' },
      { orderId: 'A-17', isMember: false, items },
    );
    const notification = await settledOne(client, transactionId);
    expect(notification.jobs.map((j: any) => j.status)).toEqual(['completed']);

    const mail = await mailTo(email);
    expect(mail.subject).toBe('Order A-17');
    const $ = load(String(mail.html));
    // The built-in layout wraps the block body (a fragment); the step's CSS is inlined.
    expect($('.email-content h1').text()).toBe('Thanks, Ada!');
    expect($('h1').attr('style')).toContain('text-align:center');
    expect($('img[alt="Acme"]').attr('src')).toBe('https://cdn.acme.test/logo.png');
    expect($('img[alt="Acme"]').closest('td').attr('align')).toBe('center');
    expect($('p:contains("Your order") strong').text()).toBe('#A-17');
    expect($('p:contains("Members ship free")')).toHaveLength(0);
    // Two of three items, each a row of two columns; a payload value is text.
    const rows = $('tr.tab-row-full');
    expect(
      rows.toArray().map((row) =>
        $(row)
          .children('td')
          .toArray()
          .map((cell) => $(cell).text()),
      ),
    ).toEqual([
      ['Pen', '$2'],
      ['Ink <b>blue</b>', '$5'],
    ]);
    expect(rows.find('b')).toHaveLength(0);
    expect(
      rows
        .first()
        .children('td')
        .toArray()
        .map((cell) => $(cell).attr('width')),
    ).toEqual(['70%', '30%']);
    expect($('hr')).toHaveLength(1);
    const button = $('a:contains("Track it")');
    expect(button.attr('href')).toBe('https://acme.test/orders/A-17');
    expect(button.attr('style')).toContain('background-color:#0055ff');
    expect(button.closest('td').attr('align')).toBe('center');
    expect($('a:contains("Write to us")').attr('href')).toBe('mailto:help@acme.test');

    // The message keeps the rendered HTML, not the JSON.
    const [message] = await messagesOf(client, subscriberId, 'email');
    expect(message.content).not.toContain('"type":"doc"');
    expect(load(message.content)('h1').text()).toBe('Thanks, Ada!');
  });

  it('without a layout is a whole document; a digest’s events through steps.<id>.events', async () => {
    const body = doc(
      n('repeat', { each: 'steps.digest-step.events', iterations: 5 }, [
        n('paragraph', {}, [
          v('current.payload.userName', { aliasFor: 'steps.digest-step.events.payload.userName' }),
          t(' commented: '),
          v('current.payload.comment', { aliasFor: 'steps.digest-step.events.payload.comment' }),
        ]),
      ]),
      n('paragraph', {}, [v('steps.digest-step.eventCount'), t(' comments')]),
    );
    const workflowId = await createWorkflow(client, [
      { name: 'Digest', stepId: 'digest-step', type: 'digest', controlValues: { amount: 3, unit: 'seconds' } },
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Comments', body, editorType: 'block', layoutId: null } },
    ]);
    const subscriberId = `sub-${rand()}`;
    const email = `${subscriberId}@example.test`;
    const res = await client.post('/v1/events/trigger/bulk', {
      events: ['Ann', 'Bob'].map((userName) => ({
        name: workflowId,
        to: { subscriberId, email },
        payload: { userName, comment: `hi from ${userName}` },
      })),
    });
    expect(res.body.map((r: any) => r.status)).toEqual(['processed', 'processed']);
    const mail = await mailTo(email);
    const html = String(mail.html);
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    const $ = load(html);
    expect($('meta[name="x-apple-disable-message-reformatting"]')).toHaveLength(1);
    expect($('body > table').attr('style')).toContain('max-width:600px');
    expect($('.email-content')).toHaveLength(0);
    const lines = $('p')
      .toArray()
      .map((p) => $(p).text());
    expect(lines.slice(0, 2).sort()).toEqual(['Ann commented: hi from Ann', 'Bob commented: hi from Bob']);
    expect(lines[2]).toBe('2 comments');
  });

  it('the editor’s digest block: five comments, then the rest counted by `| pluralize` in a variable node', async () => {
    // As the dashboard's digest block writes it: a repeat of 5 over the events, then a variable
    // whose id is Liquid with filters; and a sentence of who commented, with `toSentence`.
    const body = doc(
      n('section', { showIfKey: null, backgroundColor: '#FFFFFF', borderWidth: 0 }, [
        n('paragraph', {}, [t("{{ steps.digest-step.events | toSentence: 'payload.userName', 2, 'other' }} commented")]),
        n('repeat', { each: 'steps.digest-step.events', isUpdatingKey: false, showIfKey: null, iterations: 5 }, [
          n('paragraph', { textAlign: null, showIfKey: null }, [
            v('current.payload.userName', { aliasFor: 'steps.digest-step.events.payload.userName' }),
            t(' commented: '),
            v('current.payload.comment', { aliasFor: 'steps.digest-step.events.payload.comment' }),
          ]),
        ]),
        n('paragraph', { textAlign: null, showIfKey: null }, [
          v("steps.digest-step.eventCount | minus: 5 | pluralize: 'more comment', ''"),
        ]),
      ]),
    );
    const workflowId = await createWorkflow(client, [
      { name: 'Digest', stepId: 'digest-step', type: 'digest', controlValues: { amount: 3, unit: 'seconds' } },
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'Comments', body, editorType: 'block', layoutId: null } },
    ]);
    const subscriberId = `sub-${rand()}`;
    const email = `${subscriberId}@example.test`;
    const names = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve', 'Fay', 'Gus'];
    const res = await client.post('/v1/events/trigger/bulk', {
      events: names.map((userName) => ({
        name: workflowId,
        to: { subscriberId, email },
        payload: { userName, comment: `hi from ${userName}` },
      })),
    });
    expect(res.body.map((r: any) => r.status)).toEqual(names.map(() => 'processed'));
    const $ = load(String((await mailTo(email)).html));
    const lines = $('p')
      .toArray()
      .map((p) => $(p).text());
    expect(lines).toHaveLength(7);
    const [first, second] = lines[0]!.match(/^(\w+), (\w+), and 5 others commented$/)!.slice(1);
    expect(names).toEqual(expect.arrayContaining([first, second]));
    for (const line of lines.slice(1, 6)) expect(line).toMatch(/^(\w+) commented: hi from \1$/);
    expect(lines[6]).toBe('2 more comments');
  });

  it('a bad document fails the step with a readable error rather than mailing JSON', async () => {
    // A document accepted on write can still fail with the payload it gets: a repeat over a
    // value that is not a list. The step fails with the renderer's message.
    const body = doc(n('repeat', { each: 'payload.items' }, [n('paragraph', {}, [t('x')])]));
    const workflowId = await createWorkflow(client, [
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 's', body, editorType: 'block' } },
    ]);
    const subscriberId = `sub-${rand()}`;
    const transactionId = await trigger(
      client,
      workflowId,
      { subscriberId, email: `${subscriberId}@example.test` },
      { items: 'not a list' },
    );
    const notification = await settledOne(client, transactionId);
    expect(notification.jobs[0].status).toBe('failed');
    expect(JSON.stringify(notification.jobs[0].executionDetails)).toContain('is not a list');
  });
});

describe('content safety of block bodies', () => {
  it('no XSS vector of the corpus runs in the mail: variables, Liquid text, button and link URLs, image sources', async () => {
    const body = doc(
      n('paragraph', {}, [
        v('payload.x'),
        t(' {{ payload.x }} '),
        t('link', [{ type: 'link', attrs: { href: 'payload.x', isUrlVariable: true } }]),
      ]),
      n('button', { text: 'payload.x', isTextVariable: true, url: 'payload.x', isUrlVariable: true }),
      n('image', { src: 'payload.x', isSrcVariable: true, externalLink: '{{ payload.x }}' }),
      n('htmlCodeBlock', { language: 'html' }, [t('<div class="raw">{{ payload.x | raw }}</div>')]),
    );
    const workflowId = await createWorkflow(client, [
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 'x', body, editorType: 'block' } },
    ]);
    const corpus = [...HTML_VECTORS, ...URL_VECTORS].map(([, x]) => x);
    const recipients = corpus.map(() => `sub-${rand()}`);
    const res = await client.post('/v1/events/trigger/bulk', {
      events: corpus.map((x, i) => ({
        name: workflowId,
        to: { subscriberId: recipients[i], email: `${recipients[i]}@example.test` },
        payload: { x },
      })),
    });
    expect(res.status).toBe(201);
    for (const [i, x] of corpus.entries()) {
      const mail = await mailTo(`${recipients[i]}@example.test`);
      expect(dangersIn(String(mail.html)), x).toEqual([]);
      // The variable and the Liquid output are text, as sent.
      expect(load(String(mail.html))('p').first().text(), x).toBe(`${x} ${x} link`);
      const [message] = await vi.waitFor(async () => {
        const found = await messagesOf(client, recipients[i]!, 'email');
        expect(found).toHaveLength(1);
        return found;
      }, WAIT);
      expect(dangersIn(message.content), x).toEqual([]);
    }
  }, 180_000);
});

describe('writing a block body', () => {
  const step = (controlValues: Record<string, unknown>) => ({
    name: 'Mail',
    type: 'email',
    controlValues: { subject: 's', ...controlValues },
  });

  it('refuses a document the renderer cannot draw, or editorType block without a document, naming the step', async () => {
    const res = await client.post('/v2/workflows', {
      name: `bad-${rand()}`,
      steps: [
        step({ body: '<p>fine</p>' }),
        step({ body: doc(n('video', { src: 'x' })), editorType: 'block' }),
        step({ body: '<p>html</p>', editorType: 'block' }),
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation Error');
    expect(Object.keys(res.body.errors).sort()).toEqual(['steps.1.controlValues.body', 'steps.2.controlValues.body']);
    expect(res.body.errors['steps.1.controlValues.body'].messages[0]).toContain('Node type "video" is not supported');
    expect(res.body.errors['steps.2.controlValues.body'].messages[0]).toContain('when editorType is block');
  });

  it('refuses it on update too and keeps the stored step; a v1 template with a bad document is refused', async () => {
    const workflowId = await createWorkflow(client, [
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 's', body: ORDER, editorType: 'block' } },
    ]);
    const bad = await client.put(`/v2/workflows/${workflowId}`, {
      name: workflowId,
      steps: [
        {
          ...step({ body: '{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text"}]}]}', editorType: 'block' }),
          stepId: 'mail',
        },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['steps.0.controlValues.body'].messages[0]).toContain('a text node needs its text');
    const stored = await client.get(`/v2/workflows/${workflowId}`);
    expect(stored.body.steps[0].controlValues.body).toBe(ORDER);

    const v1 = await client.post('/v1/notification-templates', {
      name: `v1-${rand()}`,
      notificationGroupId: (await client.get('/v1/notification-groups')).body.data[0]._id,
      steps: [{ template: { type: 'email', subject: 's', content: doc(n('video')) } }],
    });
    expect(v1.status).toBe(422);
    expect(v1.body.errors['steps.0.template.content'].messages[0]).toContain('Node type "video" is not supported');
  });

  it('reads the variables a block body names: the payload example, and issues for a variable outside the payload schema', async () => {
    const workflowId = await createWorkflow(client, [
      { name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 's', body: ORDER, editorType: 'block' } },
    ]);
    const res = await client.get(`/v2/workflows/${workflowId}`);
    expect(res.status).toBe(200);
    expect(res.body.payloadExample).toEqual({
      orderId: '{{payload.orderId}}',
      isMember: '{{payload.isMember}}',
      items: [{ name: '{{payload.items.0.name}}', price: '{{payload.items.0.price}}' }],
    });
    expect(res.body.steps[0].issues).toEqual({});

    const schema = { type: 'object', properties: { orderId: { type: 'string' } }, additionalProperties: false };
    const strict = await createWorkflow(
      client,
      [{ name: 'Mail', stepId: 'mail', type: 'email', controlValues: { subject: 's', body: ORDER, editorType: 'block' } }],
      { payloadSchema: schema },
    );
    const issues = (await client.get(`/v2/workflows/${strict}`)).body.steps[0].issues;
    const names = issues.controls.body.map((issue: any) => issue.variableName);
    expect([...new Set(names)].sort()).toEqual(['payload.isMember', 'payload.items', 'payload.items.0.name', 'payload.items.0.price']);
  });
});
