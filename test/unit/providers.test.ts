import { describe, it, expect } from 'vitest';
import {
  BOOLEAN_CREDENTIAL_KEYS,
  CHANNELS,
  CHANNELS_WITH_PRIMARY,
  PROVIDERS,
  SECRET_CREDENTIAL_KEYS,
  STRING_CREDENTIAL_KEYS,
  findProvider,
  missingCredentials,
  type Channel,
  type ProviderDef,
} from '../../lib/integrations/catalogue.ts';

const EXPECTED: Record<Channel, string[]> = {
  email: [
    'emailjs',
    'mailgun',
    'mailjet',
    'mandrill',
    'nodemailer',
    'postmark',
    'sendgrid',
    'sendinblue',
    'ses',
    'netcore',
    'infobip-email',
    'resend',
    'plunk',
    'mailersend',
    'mailtrap',
    'outlook365',
    'svc-email',
    'sparkpost',
    'email-webhook',
    'braze',
  ],
  sms: [
    'nexmo',
    'plivo',
    'sms77',
    'sms-central',
    'sns',
    'telnyx',
    'twilio',
    'gupshup',
    'firetext',
    'infobip-sms',
    'burst-sms',
    'bulk-sms',
    'isend-sms',
    'forty-six-elks',
    'kannel',
    'maqsam',
    'termii',
    'africas-talking',
    'svc-sms',
    'sendchamp',
    'generic-sms',
    'clicksend',
    'bandwidth',
    'messagebird',
    'simpletexting',
    'azure-sms',
    'ring-central',
    'brevo-sms',
    'eazy-sms',
    'mobishastra',
    'afro-message',
    'unifonic',
    'smsmode',
    'imedia',
    'sinch',
    'isendpro-sms',
    'clickatell',
  ],
  push: ['fcm', 'apns', 'expo', 'one-signal', 'pushpad', 'push-webhook', 'pusher-beams', 'appio'],
  chat: [
    'slack',
    'discord',
    'msteams',
    'mattermost',
    'ryver',
    'zulip',
    'grafana-on-call',
    'getstream',
    'rocket-chat',
    'whatsapp-business',
    'chat-webhook',
    'svc-slack',
    'telegram',
  ],
  in_app: ['svc'],
};

function get(id: string): ProviderDef {
  const p = findProvider(id);
  if (!p) throw new Error(`provider ${id} not in catalogue`);
  return p;
}

const required = (id: string) =>
  get(id)
    .credentials.filter((f) => f.required)
    .map((f) => f.key)
    .sort();
const keys = (id: string) =>
  get(id)
    .credentials.map((f) => f.key)
    .sort();

describe('provider catalogue', () => {
  it('holds every expected provider exactly once, on the expected channel, and nothing else', () => {
    const ids = PROVIDERS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);

    const expectedIds = Object.values(EXPECTED).flat();
    expect([...ids].sort()).toEqual([...expectedIds].sort());

    for (const [channel, list] of Object.entries(EXPECTED)) {
      for (const id of list) expect(get(id).channel, id).toBe(channel);
    }
  });

  it('uses only known channels and gives every provider a display name', () => {
    for (const p of PROVIDERS) {
      expect(CHANNELS).toContain(p.channel);
      expect(p.displayName.trim(), p.id).not.toBe('');
    }
  });

  it('uses only allowed credential keys, each at most once per provider, each with a label', () => {
    const allowed = new Set<string>([...STRING_CREDENTIAL_KEYS, ...BOOLEAN_CREDENTIAL_KEYS, 'tlsOptions']);
    for (const p of PROVIDERS) {
      const ks = p.credentials.map((f) => f.key);
      expect(new Set(ks).size, p.id).toBe(ks.length);
      for (const f of p.credentials) {
        expect(allowed.has(f.key), `${p.id}.${f.key}`).toBe(true);
        expect(f.displayName.trim(), `${p.id}.${f.key}`).not.toBe('');
      }
    }
  });

  it('exposes the allowed key lists as specified', () => {
    expect(STRING_CREDENTIAL_KEYS).toHaveLength(40);
    expect(STRING_CREDENTIAL_KEYS[0]).toBe('apiKey');
    expect(STRING_CREDENTIAL_KEYS.at(-1)).toBe('tenantId');
    expect([...BOOLEAN_CREDENTIAL_KEYS].sort()).toEqual(['authenticateByToken', 'hmac', 'ignoreTls', 'requireTls', 'secure']);
    expect([...SECRET_CREDENTIAL_KEYS].sort()).toEqual([
      'accessKey',
      'apiKey',
      'apiToken',
      'password',
      'secretKey',
      'serviceAccount',
      'token',
    ]);
  });

  it('marks no boolean or object credential as required', () => {
    const nonString = new Set<string>([...BOOLEAN_CREDENTIAL_KEYS, 'tlsOptions']);
    for (const p of PROVIDERS) {
      for (const f of p.credentials) if (nonString.has(f.key)) expect(f.required, `${p.id}.${f.key}`).toBe(false);
    }
  });

  it('knows the credentials of well-known providers', () => {
    expect(required('sendgrid')).toEqual(['apiKey', 'from', 'senderName']);
    expect(keys('sendgrid')).toEqual(['apiKey', 'from', 'ipPoolName', 'region', 'senderName']);
    expect(required('twilio')).toEqual(['accountSid', 'from', 'token']);
    expect(required('ses')).toEqual(['apiKey', 'from', 'region', 'secretKey', 'senderName']);
    expect(required('sns')).toEqual(['apiKey', 'region', 'secretKey']);
    expect(required('mailgun')).toEqual(['apiKey', 'domain', 'from', 'senderName', 'user']);
    expect(required('nodemailer')).toEqual(['from', 'host', 'port', 'senderName']);
    expect(keys('nodemailer')).toContain('tlsOptions');
    expect(required('fcm')).toEqual(['serviceAccount']);
    expect(required('apns')).toEqual(['apiKey', 'applicationId', 'projectName', 'secretKey']);
    expect(required('expo')).toEqual(['apiKey']);
    expect(required('slack')).toEqual(['applicationId', 'clientId', 'secretKey']);
    expect(required('generic-sms')).toEqual(['apiKey', 'apiKeyRequestHeader', 'baseUrl', 'from', 'idPath']);
    expect(required('bulk-sms')).toEqual(['apiToken']);
    expect(required('appio')).toEqual(['AppIOBaseUrl']);
    expect(required('chat-webhook')).toEqual([]);
    expect(required('discord')).toEqual([]);
  });

  it('requires nothing of the built-in providers', () => {
    for (const id of ['svc', 'svc-email', 'svc-sms', 'svc-slack']) expect(required(id), id).toEqual([]);
    expect(missingCredentials(get('svc-email'), {})).toEqual([]);
    expect(missingCredentials(get('svc-sms'), {})).toEqual([]);
    expect(get('svc').channel).toBe('in_app');
  });
});

describe('findProvider', () => {
  it('returns the definition for a known id and undefined otherwise', () => {
    expect(findProvider('sendgrid')?.displayName).toBe('SendGrid');
    expect(findProvider('novu-email')).toBeUndefined();
    expect(findProvider('SendGrid')).toBeUndefined();
    expect(findProvider('')).toBeUndefined();
  });

  it('returns the same object that PROVIDERS holds', () => {
    for (const p of PROVIDERS) expect(findProvider(p.id)).toBe(p);
  });
});

describe('missingCredentials', () => {
  const twilio = get('twilio');

  it('lists every required key when nothing is given', () => {
    expect(missingCredentials(twilio, {}).sort()).toEqual(['accountSid', 'from', 'token']);
  });

  it('treats empty and whitespace-only strings, null and undefined as missing', () => {
    const missing = missingCredentials(twilio, { accountSid: '', token: '   \t', from: null });
    expect(missing.sort()).toEqual(['accountSid', 'from', 'token']);
    expect(missingCredentials(twilio, { accountSid: 'AC1', token: 't', from: undefined })).toEqual(['from']);
  });

  it('returns nothing once every required key has a value', () => {
    expect(missingCredentials(twilio, { accountSid: 'AC1', token: 't', from: '+15550100' })).toEqual([]);
  });

  it('ignores optional keys and counts non-string values as present', () => {
    const smtp = get('nodemailer');
    const creds = { host: 'smtp.example.com', port: 587, from: 'a@example.com', senderName: 'A' };
    expect(missingCredentials(smtp, creds)).toEqual([]);
    expect(missingCredentials(smtp, { ...creds, port: '' })).toEqual(['port']);
  });
});

describe('CHANNELS_WITH_PRIMARY', () => {
  it('is email and sms only', () => {
    expect([...CHANNELS_WITH_PRIMARY].sort()).toEqual(['email', 'sms']);
  });
});

describe('delivery code', () => {
  // Every provider an integration can name delivers: an active integration is never one that
  // cannot send (issue 18). In-app is delivered by the service itself.
  it('exists for every provider of the catalogue, with its credential checks', async () => {
    const { deliveryProvider } = await import('#lib/providers/registry.ts');
    const { canDeliver } = await import('#lib/providers/credential-checks.ts');
    const without = PROVIDERS.filter((p) => p.channel !== 'in_app' && (!deliveryProvider(p.id) || !canDeliver(p.id, p.channel))).map(
      (p) => p.id,
    );
    expect(without).toEqual([]);
  });
});
