import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import type { Delivery } from '#lib/providers/provider.ts';
import { SIGNATURE_HEADER } from '#lib/providers/webhook-signature.ts';
import { createTestOrg, startTestApi, type ApiClient, type TestEnv } from '../support/api.ts';
import { rand, settledOne, triggerWith } from '../support/pipeline.ts';
import { deliveryOf } from '../support/deliveries.ts';
import { expectActivation, type ActivationCase } from '../support/provider-activation.ts';
import { startFakeApi, startFakeSmtp, type FakeApi, type FakeSmtp } from '../support/provider-servers.ts';
import { failure, send } from '../support/provider-calls.ts';
import { primarySmtpIntegration, smtpIntegration } from '../support/smtp-integration.ts';

// Email providers against real local servers: an SMTP server that receives and parses the mail,
// and an HTTP server standing in for each API, which checks the exact request and answers
// success, 4xx, 5xx, 429 or nothing in time. Providers are called directly through the registry,
// then once end to end through the API, the queues and the pipeline.

// Short timeouts and waits for this worker's direct provider calls.
process.env.PROVIDER_TIMEOUT_MS = '400';
process.env.PROVIDER_RETRY_BACKOFF_MS = '20';

let fake: FakeApi;
let smtp: FakeSmtp;
beforeAll(async () => {
  fake = await startFakeApi();
  smtp = await startFakeSmtp();
});
afterAll(async () => {
  await fake.close();
  await smtp.close();
});
beforeEach(() => {
  fake.reset();
  smtp.received.length = 0;
  smtp.refuseWith = undefined;
});

const sender = { from: 'from@acme.test', senderName: 'Acme' };
const html = '<!DOCTYPE html><html><body><p>Hi Ada</p></body></html>';
const email = (providerId: string, credentials: Record<string, unknown>, fields: Partial<Delivery> = {}) =>
  deliveryOf(providerId, 'email', { ...sender, ...credentials }, { subject: 'Welcome', content: html, ...fields });

describe('SMTP (nodemailer)', () => {
  const credentials = () => ({ host: smtp.host, port: String(smtp.port), user: 'user', password: 'secret' });

  it('delivers the mail: subject, html, sender, recipients and overrides', async () => {
    const result = await send(
      email('nodemailer', credentials(), {
        overrides: { cc: ['cc@example.test'], replyTo: 'reply@acme.test', headers: { 'X-Campaign': 'spring' }, text: 'Hi Ada (text)' },
      }),
    );
    expect(smtp.received).toHaveLength(1);
    const [{ envelope, mail }] = smtp.received as [(typeof smtp.received)[number]];
    expect(envelope).toEqual({ from: 'from@acme.test', to: ['ada@example.test', 'cc@example.test'] });
    expect(mail.subject).toBe('Welcome');
    expect(mail.html).toContain('<p>Hi Ada</p>');
    expect(mail.text?.trim()).toBe('Hi Ada (text)');
    expect(mail.from?.value).toEqual([{ address: 'from@acme.test', name: 'Acme' }]);
    expect(mail.to && !Array.isArray(mail.to) && mail.to.value.map((a) => a.address)).toEqual(['ada@example.test']);
    expect(mail.replyTo?.value[0]?.address).toBe('reply@acme.test');
    expect(mail.headers.get('x-campaign')).toBe('spring');
    expect(result.id).toBe(mail.messageId);
  });

  it('fails at once on a permanent refusal (5xx), with the server answer', async () => {
    smtp.refuseWith = { code: 550, message: 'Mailbox unavailable' };
    const error = await failure(send(email('nodemailer', credentials())));
    expect(error.message).toContain('550');
    expect(error.raw).toMatchObject({ responseCode: 550 });
    expect((error.raw as { attempts?: number }).attempts).toBeUndefined();
  });

  it('tries a temporary refusal (4xx) three times, then fails', async () => {
    smtp.refuseWith = { code: 451, message: 'Try again later' };
    const error = await failure(send(email('nodemailer', credentials())));
    expect(error.raw).toMatchObject({ responseCode: 451, attempts: 3 });
  });

  it('fails on wrong credentials without retrying', async () => {
    const error = await failure(send(email('nodemailer', { ...credentials(), password: 'wrong' })));
    expect(error.raw).toMatchObject({ code: 'EAUTH' });
  });
});

describe('Amazon SES (API v2 through the SDK)', () => {
  const credentials = () => ({ apiKey: 'AKIDTEST', secretKey: 'shh', region: 'eu-west-1', baseUrl: fake.url });

  it('sends SendEmail signed with the integration keys', async () => {
    fake.reply = () => ({ status: 200, body: { MessageId: 'ses-1' } });
    const result = await send(
      email('ses', credentials(), { overrides: { bcc: 'audit@acme.test' }, providerData: { ConfigurationSetName: 'tracking' } }),
    );
    expect(result.id).toBe('ses-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v2/email/outbound-emails' });
    expect(request!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/eu-west-1\/ses\/aws4_request/);
    expect(request!.json).toMatchObject({
      FromEmailAddress: '"Acme" <from@acme.test>',
      Destination: { ToAddresses: ['ada@example.test'], BccAddresses: ['audit@acme.test'] },
      Content: { Simple: { Subject: { Data: 'Welcome' }, Body: { Html: { Data: html } } } },
      ConfigurationSetName: 'tracking',
    });
  });

  it('fails at once on a 4xx and keeps the answer; retries 5xx three times', async () => {
    fake.reply = () => ({
      status: 400,
      headers: { 'x-amzn-errortype': 'MessageRejected' },
      body: { message: 'Email address is not verified.' },
    });
    const rejected = await failure(send(email('ses', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(rejected.raw).toMatchObject({ status: 400, error: 'MessageRejected', message: 'Email address is not verified.' });

    fake.reset();
    fake.reply = () => ({ status: 503, headers: { 'x-amzn-errortype': 'ServiceUnavailable' }, body: { message: 'down' } });
    const unavailable = await failure(send(email('ses', credentials())));
    expect(fake.requests).toHaveLength(3);
    expect(unavailable.raw).toMatchObject({ status: 503, attempts: 3 });
  });
});

describe('SendGrid', () => {
  const credentials = () => ({ apiKey: 'SG.key', baseUrl: fake.url, ipPoolName: 'pool-a' });

  it('sends the v3 mail/send request with overrides and provider data', async () => {
    fake.reply = () => ({ status: 202, headers: { 'x-message-id': 'sg-1' }, body: '' });
    const result = await send(
      email('sendgrid', credentials(), {
        overrides: { customData: { campaign: 'spring', n: 2 }, replyTo: 'reply@acme.test', cc: ['cc@example.test'] },
        providerData: { mail_settings: { sandbox_mode: { enable: true } }, _passthrough: { headers: { 'x-extra': 'yes' } } },
      }),
    );
    expect(result).toMatchObject({ id: 'sg-1' });
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v3/mail/send' });
    expect(request!.headers.authorization).toBe('Bearer SG.key');
    expect(request!.headers['x-extra']).toBe('yes');
    expect(request!.json).toEqual({
      personalizations: [{ to: [{ email: 'ada@example.test' }], cc: [{ email: 'cc@example.test' }] }],
      from: { email: 'from@acme.test', name: 'Acme' },
      reply_to: { email: 'reply@acme.test' },
      subject: 'Welcome',
      content: [{ type: 'text/html', value: html }],
      custom_args: { campaign: 'spring', n: '2' },
      ip_pool_name: 'pool-a',
      mail_settings: { sandbox_mode: { enable: true } },
    });
  });

  it('a 4xx is final: one request, the provider message and answer kept', async () => {
    fake.reply = () => ({
      status: 400,
      body: { errors: [{ message: 'The from address does not match a verified Sender Identity.', field: 'from' }] },
    });
    const error = await failure(send(email('sendgrid', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('SendGrid answered 400: The from address does not match a verified Sender Identity.');
    expect(error.raw).toEqual({
      status: 400,
      body: { errors: [{ message: 'The from address does not match a verified Sender Identity.', field: 'from' }] },
    });
  });

  it('a 5xx is tried three times, then fails with the last answer', async () => {
    fake.reply = (_r, i) => ({ status: 500 + i, body: { errors: [{ message: `broken ${i}` }] } });
    const error = await failure(send(email('sendgrid', credentials())));
    expect(fake.requests).toHaveLength(3);
    expect(error.raw).toEqual({ status: 502, body: { errors: [{ message: 'broken 2' }] }, attempts: 3 });
  });

  it('a 429 waits for Retry-After and tries again', async () => {
    fake.reply = (_r, i) =>
      i === 0
        ? { status: 429, headers: { 'retry-after': '1' } as Record<string, string>, body: { errors: [{ message: 'slow down' }] } }
        : { status: 202, headers: { 'x-message-id': 'sg-2' }, body: '' };
    const started = Date.now();
    const result = await send(email('sendgrid', credentials()));
    expect(result.id).toBe('sg-2');
    expect(fake.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('a 429 asking for a longer wait than a send may take fails without waiting', async () => {
    fake.reply = () => ({ status: 429, headers: { 'retry-after': '120' }, body: { errors: [{ message: 'quota' }] } });
    const error = await failure(send(email('sendgrid', credentials())));
    expect(fake.requests).toHaveLength(1);
    expect(error.raw).toMatchObject({ status: 429, attempts: 1 });
  });

  it('an answer that does not come in time is tried three times, then fails', async () => {
    fake.reply = () => ({ status: 202, headers: { 'x-message-id': 'late' }, delayMs: 2_000 });
    const error = await failure(send(email('sendgrid', credentials())));
    expect(fake.requests).toHaveLength(3);
    expect(error.message).toBe('SendGrid did not answer within 400 ms');
    expect(error.raw).toEqual({ error: 'timeout', attempts: 3 });
  });

  it('a success without a message id counts as a failure', async () => {
    fake.reply = () => ({ status: 202, body: '' });
    const error = await failure(send(email('sendgrid', credentials())));
    expect(error.message).toBe('SendGrid answered without a message id');
  });
});

describe('HTTP email APIs', () => {
  it('Mailgun: form-encoded messages request with Basic auth', async () => {
    fake.reply = () => ({ status: 200, body: { id: '<mg-1@mg.acme.test>', message: 'Queued. Thank you.' } });
    const result = await send(
      email(
        'mailgun',
        { apiKey: 'key-1', user: 'api', domain: 'mg.acme.test', baseUrl: fake.url },
        { overrides: { replyTo: 'reply@acme.test', customData: { campaign: 'spring' } } },
      ),
    );
    expect(result.id).toBe('<mg-1@mg.acme.test>');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v3/mg.acme.test/messages' });
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from('api:key-1').toString('base64')}`);
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(request!.form)).toEqual({
      from: '"Acme" <from@acme.test>',
      to: 'ada@example.test',
      subject: 'Welcome',
      html,
      'h:Reply-To': 'reply@acme.test',
      'v:campaign': 'spring',
    });
  });

  it('Postmark: base URL from PROVIDER_BASE_URL_POSTMARK; a 422 is final', async () => {
    process.env.PROVIDER_BASE_URL_POSTMARK = fake.url;
    try {
      fake.reply = () => ({ status: 200, body: { To: 'ada@example.test', MessageID: 'pm-1', ErrorCode: 0, Message: 'OK' } });
      const result = await send(email('postmark', { apiKey: 'server-token' }, { overrides: { customData: { campaign: 'spring' } } }));
      expect(result.id).toBe('pm-1');
      const [request] = fake.requests;
      expect(request).toMatchObject({ method: 'POST', path: '/email' });
      expect(request!.headers['x-postmark-server-token']).toBe('server-token');
      expect(request!.json).toEqual({
        From: '"Acme" <from@acme.test>',
        To: 'ada@example.test',
        Subject: 'Welcome',
        HtmlBody: html,
        Metadata: { campaign: 'spring' },
      });

      fake.reset();
      fake.reply = () => ({ status: 422, body: { ErrorCode: 300, Message: 'Invalid email request' } });
      const error = await failure(send(email('postmark', { apiKey: 'server-token' })));
      expect(fake.requests).toHaveLength(1);
      expect(error.message).toBe('Postmark answered 422: Invalid email request');
    } finally {
      delete process.env.PROVIDER_BASE_URL_POSTMARK;
    }
  });

  it('Resend: emails request with Bearer auth', async () => {
    fake.reply = () => ({ status: 200, body: { id: 're-1' } });
    const result = await send(
      email('resend', { apiKey: 're_key', baseUrl: fake.url }, { overrides: { replyTo: 'reply@acme.test', bcc: ['audit@acme.test'] } }),
    );
    expect(result.id).toBe('re-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/emails' });
    expect(request!.headers.authorization).toBe('Bearer re_key');
    expect(request!.json).toEqual({
      from: '"Acme" <from@acme.test>',
      to: ['ada@example.test'],
      bcc: ['audit@acme.test'],
      reply_to: 'reply@acme.test',
      subject: 'Welcome',
      html,
    });
  });

  it('Mailjet: v3.1 send with Basic auth; a message the answer marks as error fails', async () => {
    fake.reply = () => ({
      status: 200,
      body: { Messages: [{ Status: 'success', To: [{ Email: 'ada@example.test', MessageUUID: 'u-1', MessageID: 1234 }] }] },
    });
    const result = await send(
      email(
        'mailjet',
        { apiKey: 'mj-key', secretKey: 'mj-secret', baseUrl: fake.url },
        { overrides: { customData: { campaign: 'spring' } } },
      ),
    );
    expect(result.id).toBe('u-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v3.1/send' });
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from('mj-key:mj-secret').toString('base64')}`);
    expect(request!.json).toEqual({
      Messages: [
        {
          From: { Email: 'from@acme.test', Name: 'Acme' },
          To: [{ Email: 'ada@example.test' }],
          Subject: 'Welcome',
          HTMLPart: html,
          EventPayload: '{"campaign":"spring"}',
        },
      ],
    });

    fake.reply = () => ({
      status: 400,
      body: { Messages: [{ Status: 'error', Errors: [{ ErrorMessage: 'Type mismatch', StatusCode: 400 }] }] },
    });
    const error = await failure(send(email('mailjet', { apiKey: 'mj-key', secretKey: 'mj-secret', baseUrl: fake.url })));
    expect(error.message).toBe('Mailjet answered 400: Type mismatch');
  });

  it('Brevo (sendinblue): smtp/email with the api-key header', async () => {
    fake.reply = () => ({ status: 201, body: { messageId: '<br-1@smtp-relay.brevo.com>' } });
    const result = await send(
      email('sendinblue', { apiKey: 'xkeysib', baseUrl: fake.url }, { overrides: { customData: { campaign: 'spring' } } }),
    );
    expect(result.id).toBe('<br-1@smtp-relay.brevo.com>');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v3/smtp/email' });
    expect(request!.headers['api-key']).toBe('xkeysib');
    expect(request!.json).toEqual({
      sender: { email: 'from@acme.test', name: 'Acme' },
      to: [{ email: 'ada@example.test' }],
      subject: 'Welcome',
      htmlContent: html,
      headers: { 'X-Mailin-custom': '{"campaign":"spring"}' },
    });
  });

  it('email-webhook: the JSON email, signed with the secret key', async () => {
    fake.reply = () => ({ status: 200, body: { ok: true } });
    const result = await send(
      email(
        'email-webhook',
        { webhookUrl: `${fake.url}/hooks/email`, secretKey: 'hook-secret' },
        { overrides: { customData: { campaign: 'spring' } } },
      ),
    );
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/hooks/email' });
    expect(request!.headers[SIGNATURE_HEADER]).toBe(createHmac('sha256', 'hook-secret').update(request!.text).digest('hex'));
    expect(request!.json).toMatchObject({
      id: result.id,
      to: ['ada@example.test'],
      from: 'from@acme.test',
      senderName: 'Acme',
      subject: 'Welcome',
      html,
      customData: { campaign: 'spring' },
    });
  });

  it('the sender falls back from overrides to the step to the credentials', async () => {
    fake.reply = () => ({ status: 200, body: { id: 're-2' } });
    const base = { apiKey: 're_key', baseUrl: fake.url };
    await send(email('resend', base, { from: 'step@acme.test', senderName: 'Step' }));
    await send(email('resend', base, { from: 'step@acme.test', overrides: { from: 'override@acme.test', senderName: 'Override' } }));
    await send(deliveryOf('resend', 'email', base, { subject: 'S', content: html }));
    expect(fake.requests.map((r) => r.json.from)).toEqual([
      '"Step" <step@acme.test>',
      '"Override" <override@acme.test>',
      'no-reply@localhost',
    ]);
  });
});

describe('more HTTP email APIs', () => {
  const everything = {
    cc: ['cc@example.test'],
    bcc: ['audit@acme.test'],
    replyTo: 'reply@acme.test',
    text: 'Hi Ada (text)',
    headers: { 'X-Campaign': 'spring' },
    customData: { campaign: 'spring' },
  };
  // `everything` as MailerSend and Mailtrap write it (SendGrid's style of addresses).
  const addressObjects = {
    from: { email: 'from@acme.test', name: 'Acme' },
    to: [{ email: 'ada@example.test' }],
    cc: [{ email: 'cc@example.test' }],
    bcc: [{ email: 'audit@acme.test' }],
    reply_to: { email: 'reply@acme.test' },
    subject: 'Welcome',
    html,
    text: 'Hi Ada (text)',
  };

  it(
    'MailerSend: v1/email with Bearer auth; the id from X-Message-Id; ' + 'customData template and personalization; a 422 is final',
    async () => {
      fake.reply = () => ({ status: 202, headers: { 'x-message-id': 'ms-1' }, body: '' });
      const result = await send(email('mailersend', { apiKey: 'mlsn.key', baseUrl: fake.url }, { overrides: everything }));
      expect(result.id).toBe('ms-1');
      const [request] = fake.requests;
      expect(request).toMatchObject({ method: 'POST', path: '/v1/email' });
      expect(request!.headers.authorization).toBe('Bearer mlsn.key');
      expect(request!.json).toEqual({
        ...addressObjects,
        headers: [{ name: 'X-Campaign', value: 'spring' }],
      });

      fake.reset();
      fake.reply = () => ({ status: 202, headers: { 'x-message-id': 'ms-2' }, body: '' });
      const personalization = [{ email: 'ada@example.test', data: { name: 'Ada' } }];
      await send(
        email(
          'mailersend',
          { apiKey: 'mlsn.key', baseUrl: fake.url },
          { overrides: { customData: { templateId: 'tpl-1', personalization } } },
        ),
      );
      expect(fake.requests[0]!.json).toMatchObject({ template_id: 'tpl-1', personalization });

      fake.reset();
      fake.reply = () => ({
        status: 422,
        body: {
          message: 'The from.email domain must be verified in your account.',
          errors: { 'from.email': ['The from.email domain must be verified in your account.'] },
        },
      });
      const error = await failure(send(email('mailersend', { apiKey: 'mlsn.key', baseUrl: fake.url })));
      expect(fake.requests).toHaveLength(1);
      expect(error.message).toBe('MailerSend answered 422: The from.email domain must be verified in your account.');
    },
  );

  it('Mailtrap: api/send with Bearer auth, customData as custom_variables; its error list is the reason', async () => {
    fake.reply = () => ({ status: 200, body: { success: true, message_ids: ['mt-1', 'mt-2'] } });
    const result = await send(email('mailtrap', { apiKey: 'mt-token', baseUrl: fake.url }, { overrides: everything }));
    expect(result.id).toBe('mt-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/send' });
    expect(request!.headers.authorization).toBe('Bearer mt-token');
    expect(request!.json).toEqual({
      ...addressObjects,
      headers: { 'X-Campaign': 'spring' },
      custom_variables: { campaign: 'spring' },
    });

    fake.reset();
    fake.reply = () => ({ status: 401, body: { success: false, errors: ['Unauthorized'] } });
    const error = await failure(send(email('mailtrap', { apiKey: 'wrong', baseUrl: fake.url })));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('Mailtrap answered 401: Unauthorized');
  });

  it('Mandrill: messages/send with the key in the body; a rejected recipient fails with its reason', async () => {
    fake.reply = () => ({ status: 200, body: [{ email: 'ada@example.test', status: 'sent', _id: 'md-1', reject_reason: null }] });
    const result = await send(email('mandrill', { apiKey: 'md-key', baseUrl: fake.url }, { overrides: everything }));
    expect(result.id).toBe('md-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/1.0/messages/send' });
    expect(request!.json).toEqual({
      key: 'md-key',
      message: {
        from_email: 'from@acme.test',
        from_name: 'Acme',
        to: [
          { email: 'ada@example.test', type: 'to' },
          { email: 'cc@example.test', type: 'cc' },
          { email: 'audit@acme.test', type: 'bcc' },
        ],
        preserve_recipients: true,
        subject: 'Welcome',
        html,
        text: 'Hi Ada (text)',
        headers: { 'X-Campaign': 'spring', 'Reply-To': 'reply@acme.test' },
        metadata: { campaign: 'spring' },
      },
    });

    fake.reply = () => ({
      status: 200,
      body: [{ email: 'ada@example.test', status: 'rejected', _id: 'md-2', reject_reason: 'hard-bounce' }],
    });
    const rejected = await failure(send(email('mandrill', { apiKey: 'md-key', baseUrl: fake.url })));
    expect(rejected.message).toBe('Mandrill did not send the message: hard-bounce');
  });

  it('Mandrill: its 500 naming a bad key is final, its GeneralError is tried again', async () => {
    fake.reply = () => ({ status: 500, body: { status: 'error', code: -1, name: 'Invalid_Key', message: 'Invalid API key' } });
    const invalid = await failure(send(email('mandrill', { apiKey: 'wrong', baseUrl: fake.url })));
    expect(fake.requests).toHaveLength(1);
    expect(invalid.message).toBe('Mandrill answered 500: Invalid API key');
    expect(invalid.raw).toMatchObject({ status: 500, body: { name: 'Invalid_Key' } });

    fake.reset();
    fake.reply = () => ({
      status: 500,
      body: { status: 'error', code: -99, name: 'GeneralError', message: 'An unexpected error occurred' },
    });
    const general = await failure(send(email('mandrill', { apiKey: 'md-key', baseUrl: fake.url })));
    expect(fake.requests).toHaveLength(3);
    expect(general.raw).toMatchObject({ attempts: 3 });
  });

  it('Netcore: v5.1 mail/send with the api_key header, one personalization', async () => {
    fake.reply = () => ({ status: 200, body: { data: { message_id: 'nc-1' }, message: 'OK', status: 'success' } });
    const result = await send(email('netcore', { apiKey: 'nc-key', baseUrl: fake.url }, { overrides: everything }));
    expect(result.id).toBe('nc-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v5.1/mail/send' });
    expect(request!.headers.api_key).toBe('nc-key');
    expect(request!.json).toEqual({
      from: { email: 'from@acme.test', name: 'Acme' },
      reply_to: 'reply@acme.test',
      subject: 'Welcome',
      content: [{ type: 'html', value: html }],
      personalizations: [
        {
          to: [{ email: 'ada@example.test' }],
          cc: [{ email: 'cc@example.test' }],
          bcc: [{ email: 'audit@acme.test' }],
          headers: { 'X-Campaign': 'spring' },
          attributes: { campaign: 'spring' },
        },
      ],
    });

    fake.reset();
    fake.reply = () => ({ status: 401, body: { data: [], message: 'Invalid api_key', status: 'error' } });
    const error = await failure(send(email('netcore', { apiKey: 'wrong', baseUrl: fake.url })));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('Netcore answered 401: Invalid api_key');
  });

  it("Plunk: v1/send with Bearer auth, the email's id kept; cc or bcc fail without a call", async () => {
    fake.reply = () => ({
      status: 200,
      body: {
        success: true,
        emails: [{ contact: { id: 'contact-1', email: 'ada@example.test' }, email: 'pl-1' }],
        timestamp: '2026-01-01T00:00:00.000Z',
      },
    });
    const result = await send(
      email(
        'plunk',
        { apiKey: 'sk_plunk', baseUrl: fake.url },
        { overrides: { replyTo: 'reply@acme.test', headers: { 'X-Campaign': 'spring' } } },
      ),
    );
    expect(result.id).toBe('pl-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/send' });
    expect(request!.headers.authorization).toBe('Bearer sk_plunk');
    expect(request!.json).toEqual({
      to: 'ada@example.test',
      subject: 'Welcome',
      body: html,
      from: 'from@acme.test',
      name: 'Acme',
      reply: 'reply@acme.test',
      headers: { 'X-Campaign': 'spring' },
    });

    fake.reset();
    const copies = await failure(
      send(email('plunk', { apiKey: 'sk_plunk', baseUrl: fake.url }, { overrides: { cc: ['cc@example.test'] } })),
    );
    expect(copies.message).toBe('Plunk cannot send cc or bcc copies');
    expect(fake.requests).toHaveLength(0);

    fake.reply = () => ({ status: 401, body: { code: 401, error: 'Unauthorized', message: 'Incorrect Bearer token specified', time: 1 } });
    const error = await failure(send(email('plunk', { apiKey: 'wrong', baseUrl: fake.url })));
    expect(error.message).toBe('Plunk answered 401: Incorrect Bearer token specified');
  });

  it('SparkPost: transmissions with the key as Authorization; cc and bcc addressed to the recipient', async () => {
    fake.reply = () => ({ status: 200, body: { results: { total_rejected_recipients: 0, total_accepted_recipients: 3, id: 'sp-1' } } });
    const result = await send(email('sparkpost', { apiKey: 'sp-key', region: 'eu', baseUrl: fake.url }, { overrides: everything }));
    expect(result.id).toBe('sp-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/api/v1/transmissions' });
    expect(request!.headers.authorization).toBe('sp-key');
    expect(request!.json).toEqual({
      recipients: [
        { address: { email: 'ada@example.test' } },
        { address: { email: 'cc@example.test', header_to: 'ada@example.test' } },
        { address: { email: 'audit@acme.test', header_to: 'ada@example.test' } },
      ],
      content: {
        from: { email: 'from@acme.test', name: 'Acme' },
        subject: 'Welcome',
        html,
        text: 'Hi Ada (text)',
        reply_to: 'reply@acme.test',
        headers: { 'X-Campaign': 'spring', CC: 'cc@example.test' },
      },
      metadata: { campaign: 'spring' },
    });

    fake.reset();
    fake.reply = () => ({
      status: 400,
      body: {
        errors: [{ message: 'Message generation rejected', description: 'Sending domain acme.test is not registered', code: '7001' }],
      },
    });
    const error = await failure(send(email('sparkpost', { apiKey: 'sp-key', baseUrl: fake.url })));
    expect(fake.requests).toHaveLength(1);
    expect(error.message).toBe('SparkPost answered 400: Message generation rejected');
    expect(error.raw).toMatchObject({ body: { errors: [{ description: 'Sending domain acme.test is not registered' }] } });
  });

  it('Infobip: email/3/send as multipart/form-data with App auth; a REJECTED message fails', async () => {
    fake.reply = () => ({
      status: 200,
      body: {
        bulkId: 'b-1',
        messages: [
          {
            to: 'ada@example.test',
            messageId: 'ib-1',
            status: {
              groupId: 1,
              groupName: 'PENDING',
              id: 26,
              name: 'PENDING_ACCEPTED',
              description: 'Message accepted, pending for delivery.',
            },
          },
        ],
      },
    });
    const result = await send(email('infobip-email', { apiKey: 'ib-key', baseUrl: fake.url }, { overrides: everything }));
    expect(result.id).toBe('ib-1');
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/email/3/send' });
    expect(request!.headers.authorization).toBe('App ib-key');
    expect(request!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(request!.text, { headers: { 'content-type': String(request!.headers['content-type']) } }).formData();
    expect([...form.keys()].sort()).toEqual(['bcc', 'callbackData', 'cc', 'from', 'headers', 'html', 'replyTo', 'subject', 'text', 'to']);
    expect(Object.fromEntries(form)).toEqual({
      from: '"Acme" <from@acme.test>',
      to: 'ada@example.test',
      cc: 'cc@example.test',
      bcc: 'audit@acme.test',
      subject: 'Welcome',
      html,
      text: 'Hi Ada (text)',
      replyTo: 'reply@acme.test',
      headers: '{"X-Campaign":"spring"}',
      callbackData: '{"campaign":"spring"}',
    });

    fake.reply = () => ({
      status: 200,
      body: {
        messages: [
          {
            to: 'ada@example.test',
            messageId: 'ib-2',
            status: { groupId: 5, groupName: 'REJECTED', id: 52, name: 'REJECTED_DESTINATION', description: 'Invalid destination address' },
          },
        ],
      },
    });
    const rejected = await failure(send(email('infobip-email', { apiKey: 'ib-key', baseUrl: fake.url })));
    expect(rejected.message).toBe('Infobip rejected the message: Invalid destination address');

    fake.reply = () => ({
      status: 401,
      body: { requestError: { serviceException: { messageId: 'UNAUTHORIZED', text: 'Invalid login details' } } },
    });
    const unauthorized = await failure(send(email('infobip-email', { apiKey: 'wrong', baseUrl: fake.url })));
    expect(unauthorized.message).toBe('Infobip answered 401: Invalid login details');
  });

  describe('Braze', () => {
    const credentials = () => ({ apiKey: 'braze-key', baseUrl: fake.url, applicationId: 'app-1' });
    const users: Record<string, string[]> = { 'ada@example.test': ['u-ada'], 'grace@example.test': ['u-grace', 'u-grace-2'] };
    beforeEach(() => {
      fake.reply = (request) =>
        request.path === '/users/export/ids'
          ? {
              status: 201,
              body: { users: (users[request.json?.email_address] ?? []).map((external_id) => ({ external_id })), message: 'success' },
            }
          : { status: 201, body: { dispatch_id: 'dispatch-1', message: 'success' } };
    });

    it('looks each recipient up by address, then sends to their external ids; the dispatch id is kept', async () => {
      const result = await send(
        email('braze', credentials(), {
          overrides: {
            to: ['grace@example.test'],
            bcc: ['audit@acme.test'],
            replyTo: 'reply@acme.test',
            text: 'Hi (text)',
            customData: { campaign: 'spring' },
          },
        }),
      );
      expect(result.id).toBe('dispatch-1');
      const lookups = fake.requests.filter((r) => r.path === '/users/export/ids');
      expect(lookups.map((r) => r.json).sort((a, b) => a.email_address.localeCompare(b.email_address))).toEqual([
        { email_address: 'ada@example.test', fields_to_export: ['external_id'] },
        { email_address: 'grace@example.test', fields_to_export: ['external_id'] },
      ]);
      const sent = fake.requests.find((r) => r.path === '/messages/send');
      expect(sent!.headers.authorization).toBe('Bearer braze-key');
      expect(sent!.json).toEqual({
        external_user_ids: ['u-ada', 'u-grace', 'u-grace-2'],
        messages: {
          email: {
            app_id: 'app-1',
            from: '"Acme" <from@acme.test>',
            subject: 'Welcome',
            body: html,
            plaintext_body: 'Hi (text)',
            reply_to: 'reply@acme.test',
            bcc: 'audit@acme.test',
            extras: { campaign: 'spring' },
          },
        },
      });
    });

    it('fails without sending for an address no Braze user has, or for cc copies', async () => {
      const unknown = await failure(send(email('braze', credentials(), { to: 'nobody@example.test' })));
      expect(unknown.message).toBe('Braze has no user with the email address nobody@example.test');
      const copies = await failure(send(email('braze', credentials(), { overrides: { cc: ['cc@example.test'] } })));
      expect(copies.message).toBe('Braze cannot send cc copies or more than one bcc');
      expect(fake.requests.filter((r) => r.path === '/messages/send')).toHaveLength(0);
    });

    it("a refusal of the send fails with Braze's message", async () => {
      fake.reply = (request) =>
        request.path === '/users/export/ids'
          ? { status: 201, body: { users: [{ external_id: 'u-ada' }], message: 'success' } }
          : { status: 400, body: { message: 'Valid app_id is required' } };
      const error = await failure(send(email('braze', credentials())));
      expect(error.message).toBe('Braze answered 400: Valid app_id is required');
    });
  });

  // The retry rule every HTTP provider shares, for the new ones.
  const sendable: [string, Record<string, unknown>][] = [
    ['mailersend', { apiKey: 'k' }],
    ['mailtrap', { apiKey: 'k' }],
    ['netcore', { apiKey: 'k' }],
    ['plunk', { apiKey: 'k' }],
    ['sparkpost', { apiKey: 'k' }],
    ['infobip-email', { apiKey: 'k' }],
  ];
  it.each(sendable)('%s: a 503 is tried three times, then fails with the answer', async (providerId, credentials) => {
    fake.reply = () => ({ status: 503, body: { message: 'down for maintenance' } });
    const error = await failure(send(email(providerId, { ...credentials, baseUrl: fake.url })));
    expect(fake.requests).toHaveLength(3);
    expect(error.raw).toMatchObject({ status: 503, attempts: 3 });
    expect(error.message).toMatch(/ answered 503: down for maintenance$/);
  });
});

describe('SMTP-based providers', () => {
  let tlsSmtp: FakeSmtp;
  beforeAll(async () => {
    // Outlook 365 signs in as the sender, over STARTTLS.
    tlsSmtp = await startFakeSmtp({ startTls: true, user: 'from@acme.test' });
  });
  afterAll(() => tlsSmtp.close());
  beforeEach(() => {
    tlsSmtp.received.length = 0;
  });
  const viaFake = async <T>(server: FakeSmtp, run: () => Promise<T>): Promise<T> => {
    process.env.PROVIDER_BASE_URL_OUTLOOK365 = `smtp://${server.host}:${server.port}`;
    try {
      return await run();
    } finally {
      delete process.env.PROVIDER_BASE_URL_OUTLOOK365;
    }
  };
  // smtp-server's own certificate is self-signed: the test trusts it through tlsOptions.
  const outlook = { password: 'secret', tlsOptions: { rejectUnauthorized: false } };

  it('outlook365: signs in as the sender over STARTTLS and delivers', async () => {
    const result = await viaFake(tlsSmtp, () =>
      send(email('outlook365', outlook, { overrides: { cc: ['cc@example.test'], replyTo: 'reply@acme.test', text: 'Hi (text)' } })),
    );
    expect(tlsSmtp.received).toHaveLength(1);
    const [{ envelope, mail, secure }] = tlsSmtp.received as [(typeof tlsSmtp.received)[number]];
    expect(secure).toBe(true);
    expect(envelope).toEqual({ from: 'from@acme.test', to: ['ada@example.test', 'cc@example.test'] });
    expect(mail.from?.value).toEqual([{ address: 'from@acme.test', name: 'Acme' }]);
    expect(mail.subject).toBe('Welcome');
    expect(mail.html).toContain('<p>Hi Ada</p>');
    expect(mail.text?.trim()).toBe('Hi (text)');
    expect(mail.replyTo?.value[0]?.address).toBe('reply@acme.test');
    expect(result.id).toBe(mail.messageId);
  });

  it('outlook365: refuses to send over a server that does not offer STARTTLS, and fails on a wrong password', async () => {
    const plain = await failure(viaFake(smtp, () => send(email('outlook365', outlook))));
    // The fake answers the STARTTLS the client insists on with "command not recognized".
    expect(plain.message).toBe('SMTP server refused the message: 500 Error: command not recognized');
    expect(plain.raw).toMatchObject({ responseCode: 500 });
    expect(smtp.received).toHaveLength(0);
    const wrong = await failure(viaFake(tlsSmtp, () => send(email('outlook365', { ...outlook, password: 'wrong' }))));
    expect(wrong.raw).toMatchObject({ code: 'EAUTH' });
    expect(tlsSmtp.received).toHaveLength(0);
  });

  it('emailjs: delivers over SMTP with host, port, user and password', async () => {
    const result = await send(
      email(
        'emailjs',
        { host: smtp.host, port: String(smtp.port), user: 'user', password: 'secret' },
        { overrides: { bcc: ['audit@acme.test'] } },
      ),
    );
    expect(smtp.received).toHaveLength(1);
    const [{ envelope, mail }] = smtp.received as [(typeof smtp.received)[number]];
    expect(envelope).toEqual({ from: 'from@acme.test', to: ['ada@example.test', 'audit@acme.test'] });
    expect(mail.subject).toBe('Welcome');
    expect(result.id).toBe(mail.messageId);

    smtp.refuseWith = { code: 550, message: 'Mailbox unavailable' };
    const refused = await failure(send(email('emailjs', { host: smtp.host, port: String(smtp.port), user: 'user', password: 'secret' })));
    expect(refused.raw).toMatchObject({ responseCode: 550 });
  });
});

// ---- through the API ----------------------------------------------------------------------------

let api: LocalApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

async function newEnv(): Promise<TestEnv> {
  return (await createTestOrg(api.url)).dev;
}

async function activeIntegration(client: ApiClient, body: Record<string, unknown>): Promise<any> {
  const res = await client.post('/v1/integrations', { active: true, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function makePrimary(client: ApiClient, integration: any): Promise<void> {
  const res = await client.post(`/v1/integrations/${integration._id}/set-primary`, {});
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

async function emailWorkflow(client: ApiClient, controls: Record<string, unknown>): Promise<string> {
  const workflowId = `wf-${rand()}`;
  const res = await client.post('/v2/workflows', {
    name: workflowId,
    workflowId,
    active: true,
    steps: [{ name: 'Mail', stepId: 'mail', type: 'email', controlValues: controls }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return workflowId;
}

async function emailsOf(client: ApiClient, subscriberId: string): Promise<any[]> {
  const res = await client.get(`/v1/messages?subscriberId=${subscriberId}&channel=email&limit=10`);
  expect(res.status).toBe(200);
  return res.body.data;
}

const details = (job: any): string[] => job.executionDetails.map((d: any) => d.detail);

describe('end to end: API → queues → provider', () => {
  it('delivers through the primary SMTP integration, in the default layout with CSS inlined', async () => {
    const env = await newEnv();
    await makePrimary(env.client, await smtpIntegration(env.client, smtp, 'news@acme.test', { check: true }));
    const wf = await emailWorkflow(env.client, {
      subject: 'Hello {{payload.name}}',
      body: '<style>.note { color: #ff0000; }</style><p class="note">Welcome {{payload.name}}</p>',
    });
    const subscriberId = `sub-${rand()}`;
    const txid = await triggerWith(env.client, {
      name: wf,
      to: { subscriberId, email: `${subscriberId}@example.test` },
      payload: { name: 'Ada' },
    });

    const item = await settledOne(env.client, txid);
    expect(item.jobs[0].status).toBe('completed');
    expect(details(item.jobs[0])).toEqual([
      'Step queued',
      'Custom SMTP provider was selected',
      'Layout selected',
      'Message created',
      'Message sent',
    ]);
    const [message] = await emailsOf(env.client, subscriberId);
    expect(message).toMatchObject({
      status: 'sent',
      providerId: 'nodemailer',
      subject: 'Hello Ada',
      email: `${subscriberId}@example.test`,
    });

    const received = smtp.received.find((r) => r.envelope.to.includes(`${subscriberId}@example.test`));
    expect(received).toBeDefined();
    expect(received!.mail.subject).toBe('Hello Ada');
    expect(received!.mail.from?.value).toEqual([{ address: 'news@acme.test', name: 'Acme News' }]);
    expect(received!.mail.messageId).toBe(message.identifier);
    const sent = String(received!.mail.html);
    expect(sent).toMatch(/^<!DOCTYPE html>/);
    expect(sent).toMatch(/<p class="note" style="color: #ff0000;">Welcome Ada<\/p>/);
    expect(sent).toMatch(/class="email-content" style="[^"]*max-width: 600px/);
    expect(sent).not.toContain('<style>');
  });

  it('sends the body alone when the step says layoutId: null', async () => {
    const env = await newEnv();
    await primarySmtpIntegration(env.client, smtp);
    const wf = await emailWorkflow(env.client, { subject: 'Plain', body: '<p>Just this</p>', layoutId: null });
    const subscriberId = `sub-${rand()}`;
    const txid = await triggerWith(env.client, { name: wf, to: { subscriberId, email: `${subscriberId}@example.test` } });
    expect((await settledOne(env.client, txid)).jobs[0].status).toBe('completed');
    const received = smtp.received.find((r) => r.envelope.to.includes(`${subscriberId}@example.test`));
    expect(String(received!.mail.html).trim()).toBe('<p>Just this</p>');
  });

  it('passes the trigger overrides to SendGrid, and records a provider refusal as the reference does', async () => {
    const env = await newEnv();
    const integration = await activeIntegration(env.client, {
      providerId: 'sendgrid',
      channel: 'email',
      identifier: `sg-${rand()}`,
      credentials: { apiKey: 'SG.e2e', from: 'team@acme.test', senderName: 'Acme', baseUrl: fake.url },
    });
    await makePrimary(env.client, integration);
    const wf = await emailWorkflow(env.client, { subject: 'Hi', body: '<p>Hi</p>' });
    fake.reply = (request) =>
      request.json?.personalizations?.[0]?.to?.[0]?.email?.startsWith('refused')
        ? { status: 403, body: { errors: [{ message: 'The provided authorization grant is invalid, expired, or revoked' }] } }
        : { status: 202, headers: { 'x-message-id': `sg-${request.json?.personalizations?.[0]?.to?.[0]?.email}` }, body: '' };

    const okId = `ok-${rand()}`;
    const okTx = await triggerWith(env.client, {
      name: wf,
      to: { subscriberId: okId, email: `${okId}@example.test` },
      overrides: {
        email: { replyTo: 'support@acme.test', customData: { campaign: 'e2e' } },
        sendgrid: { senderName: 'Acme Override' },
        providers: { sendgrid: { categories: ['e2e'] } },
        steps: { mail: { providers: { sendgrid: { _passthrough: { headers: { 'x-step': 'mail' } } } } } },
      },
    });
    const ok = await settledOne(env.client, okTx);
    expect(ok.jobs[0].status).toBe('completed');
    expect(details(ok.jobs[0])).toEqual([
      'Step queued',
      'SendGrid provider was selected',
      'Layout selected',
      'Message created',
      'Message sent',
    ]);
    const [sent] = await emailsOf(env.client, okId);
    expect(sent).toMatchObject({ status: 'sent', providerId: 'sendgrid', identifier: `sg-${okId}@example.test`, content: '<p>Hi</p>' });
    const request = fake.requests.find((r) => r.json?.personalizations?.[0]?.to?.[0]?.email === `${okId}@example.test`);
    expect(request!.headers.authorization).toBe('Bearer SG.e2e');
    expect(request!.headers['x-step']).toBe('mail');
    expect(request!.json).toMatchObject({
      from: { email: 'team@acme.test', name: 'Acme Override' },
      reply_to: { email: 'support@acme.test' },
      subject: 'Hi',
      custom_args: { campaign: 'e2e' },
      categories: ['e2e'],
    });
    expect(request!.json.content[0].value).toContain('<p>Hi</p>');

    const refusedId = `refused-${rand()}`;
    const refusedTx = await triggerWith(env.client, { name: wf, to: { subscriberId: refusedId, email: `${refusedId}@example.test` } });
    const refused = await settledOne(env.client, refusedTx);
    expect(refused.jobs[0].status).toBe('failed');
    expect(details(refused.jobs[0])).toEqual([
      'Step queued',
      'SendGrid provider was selected',
      'Layout selected',
      'Message created',
      'Unexpected provider error',
    ]);
    const failedDetail = refused.jobs[0].executionDetails.at(-1);
    expect(failedDetail.status).toBe('Failed');
    expect(JSON.parse(failedDetail.raw)).toEqual({
      status: 403,
      body: { errors: [{ message: 'The provided authorization grant is invalid, expired, or revoked' }] },
    });
    const [errored] = await emailsOf(env.client, refusedId);
    expect(errored).toMatchObject({
      status: 'error',
      errorId: 'mail_unexpected_error',
      errorText: 'SendGrid answered 403: The provided authorization grant is invalid, expired, or revoked',
    });
    expect(fake.requests.filter((r) => r.json?.personalizations?.[0]?.to?.[0]?.email === `${refusedId}@example.test`)).toHaveLength(1);
  });
});

// ---- integration validation -----------------------------------------------------------------------

describe('integrations: what can be active', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await newEnv();
  });

  it('lists every credential the provider schema finds missing or malformed (422)', async () => {
    const hook = await env.client.post('/v1/integrations', {
      providerId: 'email-webhook',
      channel: 'email',
      active: true,
      credentials: { webhookUrl: 'not a url', from: 'a@acme.test' },
    });
    expect(hook.status).toBe(422);
    expect(Object.keys(hook.body.errors).sort()).toEqual(['credentials.secretKey', 'credentials.senderName', 'credentials.webhookUrl']);
    expect(hook.body.errors['credentials.webhookUrl']).toEqual({ messages: ['webhookUrl must be an http(s) URL'], value: 'not a url' });
    expect(hook.body.errors['credentials.secretKey'].messages).toEqual([
      'secretKey is required by Email Webhook when the integration is active',
    ]);

    const mail = await env.client.post('/v1/integrations', {
      providerId: 'nodemailer',
      channel: 'email',
      active: true,
      credentials: { host: 'smtp.acme.test', port: 'smtp', from: 'a@acme.test', senderName: 'A' },
    });
    expect(mail.status).toBe(422);
    expect(mail.body.errors).toEqual({ 'credentials.port': { messages: ['port must be a port number (1-65535)'], value: 'smtp' } });
  });

  it('check: true runs the provider connection check', async () => {
    const smtpCredentials = { host: smtp.host, port: String(smtp.port), user: 'user', from: 'a@acme.test', senderName: 'A' };
    expect(
      (
        await env.client.post('/v1/integrations', {
          providerId: 'nodemailer',
          channel: 'email',
          credentials: { ...smtpCredentials, password: 'secret' },
          check: true,
        })
      ).status,
    ).toBe(201);
    const wrong = await env.client.post('/v1/integrations', {
      providerId: 'nodemailer',
      channel: 'email',
      credentials: { ...smtpCredentials, password: 'wrong' },
      check: true,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/^Integration check failed for nodemailer: /);

    const sendgrid = { apiKey: 'SG.check', from: 'a@acme.test', senderName: 'A', baseUrl: fake.url };
    fake.reply = () => ({ status: 200, body: { scopes: ['mail.send'] } });
    expect(
      (await env.client.post('/v1/integrations', { providerId: 'sendgrid', channel: 'email', credentials: sendgrid, check: true })).status,
    ).toBe(201);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v3/scopes' });
    expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer SG.check');
    fake.reply = () => ({ status: 401, body: { errors: [{ message: 'authorization required' }] } });
    const refused = await env.client.post('/v1/integrations', {
      providerId: 'sendgrid',
      channel: 'email',
      credentials: sendgrid,
      check: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Integration check failed for sendgrid: SendGrid answered 401: authorization required');
  });
});

describe('integrations of the other catalogue email providers', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await newEnv();
  });
  const sender = { from: 'a@acme.test', senderName: 'A' };
  // Valid credentials of each, by the catalogue; and what each refuses (422 with these paths).
  const providers: ActivationCase[] = [
    { providerId: 'mailersend', valid: { apiKey: 'k' }, malformed: { apiKey: '  ' }, errors: ['credentials.apiKey'] },
    { providerId: 'mailtrap', valid: { apiKey: 'k' }, malformed: { apiKey: 42 }, errors: ['credentials.apiKey'] },
    { providerId: 'mandrill', valid: { apiKey: 'k' }, malformed: {}, errors: ['credentials.apiKey'] },
    { providerId: 'netcore', valid: { apiKey: 'k' }, malformed: { apiKey: ['k'] }, errors: ['credentials.apiKey'] },
    { providerId: 'plunk', valid: { apiKey: 'k' }, malformed: { apiKey: null }, errors: ['credentials.apiKey'] },
    {
      providerId: 'sparkpost',
      valid: { apiKey: 'k', region: 'eu' },
      malformed: { apiKey: 'k', region: true },
      errors: ['credentials.region'],
    },
    {
      providerId: 'infobip-email',
      valid: { apiKey: 'k', baseUrl: 'xyz.api.infobip.com' },
      malformed: { apiKey: 'k', baseUrl: 'not a url' },
      errors: ['credentials.baseUrl'],
    },
    {
      providerId: 'braze',
      valid: { apiKey: 'k', baseUrl: 'https://rest.iad-01.braze.com', applicationId: 'app' },
      malformed: { apiKey: 'k', baseUrl: 'ftp://braze' },
      errors: ['credentials.applicationId', 'credentials.baseUrl'],
    },
    { providerId: 'outlook365', valid: { password: 'p' }, malformed: { password: '' }, errors: ['credentials.password'] },
    {
      providerId: 'emailjs',
      valid: { host: 'smtp.acme.test', port: '465', secure: true },
      malformed: { host: 'smtp.acme.test', port: 'smtp' },
      errors: ['credentials.port'],
    },
  ];

  it.each(providers)('$providerId: active with valid credentials (201), refused with malformed ones (422, nothing saved)', (provider) =>
    expectActivation(env.client, 'email', provider, sender),
  );

  it('check: true calls what sends nothing: MailerSend quota, Mandrill ping, Braze user lookup', async () => {
    fake.reply = () => ({ status: 200, body: { quota: 100, remaining: 99 } });
    const mailersend = await env.client.post('/v1/integrations', {
      providerId: 'mailersend',
      channel: 'email',
      credentials: { apiKey: 'ms-check', baseUrl: fake.url, ...sender },
      check: true,
    });
    expect(mailersend.status).toBe(201);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/api-quota' });
    expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer ms-check');

    fake.reply = () => ({ status: 200, body: 'PONG!' });
    expect(
      (
        await env.client.post('/v1/integrations', {
          providerId: 'mandrill',
          channel: 'email',
          credentials: { apiKey: 'md-check', baseUrl: fake.url, ...sender },
          check: true,
        })
      ).status,
    ).toBe(201);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/1.0/users/ping', json: { key: 'md-check' } });
    fake.reply = () => ({ status: 500, body: { status: 'error', code: -1, name: 'Invalid_Key', message: 'Invalid API key' } });
    const count = fake.requests.length;
    const refused = await env.client.post('/v1/integrations', {
      providerId: 'mandrill',
      channel: 'email',
      credentials: { apiKey: 'wrong', baseUrl: fake.url, ...sender },
      check: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Integration check failed for mandrill: Mandrill answered 500: Invalid API key');
    expect(fake.requests.length - count).toBe(1);

    fake.reply = () => ({ status: 201, body: { users: [], message: 'success' } });
    const braze = { apiKey: 'bz-check', baseUrl: fake.url, applicationId: 'app', ...sender };
    expect(
      (await env.client.post('/v1/integrations', { providerId: 'braze', channel: 'email', credentials: braze, check: true })).status,
    ).toBe(201);
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/users/export/ids',
      json: { email_address: 'a@acme.test', fields_to_export: ['external_id'] },
    });
    expect(fake.requests.filter((r) => r.path === '/messages/send')).toHaveLength(0);
  });

  it('check: true for a provider that cannot be checked without sending says so in a warning, and saves', async () => {
    const created = await env.client.post('/v1/integrations', {
      providerId: 'mailtrap',
      channel: 'email',
      credentials: { apiKey: 'mt', ...sender },
      check: true,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('warning')).toBe(
      '299 - "mailtrap has no call that tests credentials without sending anything: they were not checked"',
    );
    const updated = await env.client.put(`/v1/integrations/${created.body.data._id}`, {
      credentials: { apiKey: 'mt-2', ...sender },
      check: true,
    });
    expect(updated.status).toBe(200);
    expect(updated.headers.get('warning')).toMatch(/^299 - "mailtrap has no call/);
    expect(updated.body.credentials.apiKey).toBe('mt-2');

    // Without check, or with a provider that has one, no warning.
    expect((await env.client.put(`/v1/integrations/${created.body.data._id}`, { name: 'Mailtrap' })).headers.get('warning')).toBeNull();
    fake.reply = () => ({ status: 200, body: { quota: 100 } });
    const checked = await env.client.post('/v1/integrations', {
      providerId: 'mailersend',
      channel: 'email',
      credentials: { apiKey: 'ms', baseUrl: fake.url, ...sender },
      check: true,
    });
    expect(checked.status).toBe(201);
    expect(checked.headers.get('warning')).toBeNull();
  });

  it('check: true signs in to the SMTP server of emailjs', async () => {
    const emailjs = { host: smtp.host, port: String(smtp.port), user: 'user', ...sender };
    expect(
      (
        await env.client.post('/v1/integrations', {
          providerId: 'emailjs',
          channel: 'email',
          credentials: { ...emailjs, password: 'secret' },
          check: true,
        })
      ).status,
    ).toBe(201);
    const wrong = await env.client.post('/v1/integrations', {
      providerId: 'emailjs',
      channel: 'email',
      credentials: { ...emailjs, password: 'wrong' },
      check: true,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/^Integration check failed for emailjs: /);
    expect(smtp.received).toHaveLength(0);
  });

  it('delivers end to end through a primary MailerSend integration, keeping its message id', async () => {
    const env2 = await newEnv();
    const integration = await activeIntegration(env2.client, {
      providerId: 'mailersend',
      channel: 'email',
      credentials: { apiKey: 'ms-e2e', baseUrl: fake.url, from: 'team@acme.test', senderName: 'Acme' },
    });
    await makePrimary(env2.client, integration);
    const wf = await emailWorkflow(env2.client, { subject: 'Hi {{payload.name}}', body: '<p>Hi {{payload.name}}</p>' });
    fake.reply = (request) => ({ status: 202, headers: { 'x-message-id': `ms-${request.json?.to?.[0]?.email}` }, body: '' });
    const subscriberId = `sub-${rand()}`;
    const txid = await triggerWith(env2.client, {
      name: wf,
      to: { subscriberId, email: `${subscriberId}@example.test` },
      payload: { name: 'Ada' },
    });
    const item = await settledOne(env2.client, txid);
    expect(item.jobs[0].status).toBe('completed');
    expect(details(item.jobs[0])).toEqual([
      'Step queued',
      'MailerSend provider was selected',
      'Layout selected',
      'Message created',
      'Message sent',
    ]);
    const [message] = await emailsOf(env2.client, subscriberId);
    expect(message).toMatchObject({
      status: 'sent',
      providerId: 'mailersend',
      subject: 'Hi Ada',
      identifier: `ms-${subscriberId}@example.test`,
    });
    const request = fake.requests.find((r) => r.json?.to?.[0]?.email === `${subscriberId}@example.test`);
    expect(request!.headers.authorization).toBe('Bearer ms-e2e');
    expect(request!.json).toMatchObject({ from: { email: 'team@acme.test', name: 'Acme' }, subject: 'Hi Ada' });
  });
});
