// The provider catalogue: every provider the API accepts, its channel, and the credential fields
// it needs (lib/providers/ is how each one delivers). The facts (ids, channels, names, required keys) follow
// the reference's shared provider
// definitions; ids branded after the reference use the 'svc' prefix instead.
// Credential keys the reference has but our Credentials object does not (signingSecret,
// servicePlanId, apiVersion, contentType, businessAccountId) are left out; Braze's apiURL and appID
// are its baseUrl and applicationId here.

export const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];

export const STRING_CREDENTIAL_KEYS = [
  'apiKey',
  'user',
  'secretKey',
  'domain',
  'password',
  'host',
  'port',
  'region',
  'accountSid',
  'messageProfileId',
  'token',
  'from',
  'senderName',
  'projectName',
  'applicationId',
  'clientId',
  'baseUrl',
  'webhookUrl',
  'redirectUrl',
  'serviceAccount',
  'ipPoolName',
  'apiKeyRequestHeader',
  'secretKeyRequestHeader',
  'idPath',
  'datePath',
  'apiToken',
  'authenticationTokenKey',
  'instanceId',
  'alertUid',
  'title',
  'imageUrl',
  'state',
  'externalLink',
  'channelId',
  'phoneNumberIdentification',
  'accessKey',
  'appSid',
  'senderId',
  'AppIOBaseUrl',
  'tenantId',
] as const;

export const BOOLEAN_CREDENTIAL_KEYS = ['secure', 'requireTls', 'ignoreTls', 'hmac', 'authenticateByToken'] as const;

export type CredentialKey = (typeof STRING_CREDENTIAL_KEYS)[number] | (typeof BOOLEAN_CREDENTIAL_KEYS)[number] | 'tlsOptions';

/**
 * Credential keys stored encrypted at rest (docs/architecture.md, "Secrets"): the API's secret
 * keys (apiKey, apiToken, secretKey, token, password, serviceAccount) plus accessKey, which holds
 * MessageBird's access key and Azure's connection string.
 */
export const SECRET_CREDENTIAL_KEYS: readonly CredentialKey[] = [
  'apiKey',
  'apiToken',
  'secretKey',
  'token',
  'password',
  'serviceAccount',
  'accessKey',
];

export interface CredentialField {
  key: CredentialKey;
  displayName: string;
  required: boolean;
}

export interface ProviderDef {
  id: string;
  channel: Channel;
  displayName: string;
  credentials: readonly CredentialField[];
}

/** Channels that have a primary integration (email and sms), per the reference. */
export const CHANNELS_WITH_PRIMARY: readonly Channel[] = ['email', 'sms'];

// ---- data ------------------------------------------------------------------------------------

const field = (key: CredentialKey, displayName: string, required = true): CredentialField => ({
  key,
  displayName,
  required,
});
const optional = (key: CredentialKey, displayName: string): CredentialField => field(key, displayName, false);

const def = (id: string, channel: Channel, displayName: string, credentials: readonly CredentialField[] = []): ProviderDef => ({
  id,
  channel,
  displayName,
  credentials,
});

// Every email provider (except the demo sink) also needs a sender address and name.
const mail = (...fields: CredentialField[]) => [...fields, field('from', 'From email address'), field('senderName', 'Sender name')];
// Most SMS providers also need a sender number / id.
const sms = (...fields: CredentialField[]) => [...fields, field('from', 'From')];

const apiKey = field('apiKey', 'API Key');
const awsKeys = [field('apiKey', 'Access key ID'), field('secretKey', 'Secret access key')];
const webhookSecret = (required: boolean) => field('secretKey', 'Secret Hmac Key', required);
// Slack's bot token (chat.postMessage to the subscriber's channel): an addition to the reference.
const slackBotToken = optional('apiToken', 'Bot User OAuth Token (xoxb-...)');

const EMAIL: ProviderDef[] = [
  // Demo provider: delivers to the local sink, so nothing to configure.
  def('svc-email', 'email', 'Demo Email'),
  // Listed by the reference's id enum and credential table, though its UI catalogue hides it.
  // The reference's handler sends with the emailjs SMTP library (host, port, SSL, user, password),
  // not with the API key and secret key its old catalogue entry asked for.
  def(
    'emailjs',
    'email',
    'EmailJS',
    mail(
      field('host', 'Host'),
      field('port', 'Port'),
      optional('user', 'User'),
      optional('password', 'Password'),
      optional('secure', 'SSL'),
    ),
  ),
  def('mailgun', 'email', 'Mailgun', mail(apiKey, optional('baseUrl', 'Base URL'), field('user', 'User name'), field('domain', 'Domain'))),
  def('mailjet', 'email', 'Mailjet', mail(apiKey, field('secretKey', 'API Secret'))),
  def('mailtrap', 'email', 'Mailtrap', mail(apiKey)),
  def('mandrill', 'email', 'Mandrill', mail(apiKey)),
  def('postmark', 'email', 'Postmark', mail(apiKey)),
  def('sendgrid', 'email', 'SendGrid', mail(apiKey, optional('region', 'Region'), optional('ipPoolName', 'IP Pool Name'))),
  def('sendinblue', 'email', 'Sendinblue', mail(apiKey)),
  def('ses', 'email', 'SES', mail(...awsKeys, field('region', 'Region'))),
  def('netcore', 'email', 'Netcore', mail(apiKey)),
  // Custom SMTP; the DKIM settings reuse generic keys (domain, secretKey, accountSid).
  def(
    'nodemailer',
    'email',
    'Custom SMTP',
    mail(
      optional('user', 'User'),
      optional('password', 'Password'),
      field('host', 'Host'),
      field('port', 'Port'),
      optional('secure', 'Secure'),
      optional('requireTls', 'Require TLS'),
      optional('ignoreTls', 'Ignore TLS'),
      optional('tlsOptions', 'TLS options'),
      optional('domain', 'DKIM: Domain name'),
      optional('secretKey', 'DKIM: Private key'),
      optional('accountSid', 'DKIM: Key selector'),
    ),
  ),
  def('mailersend', 'email', 'MailerSend', mail(apiKey)),
  def('outlook365', 'email', 'Microsoft Outlook365', mail(field('password', 'Password'))),
  def('infobip-email', 'email', 'Infobip', mail(apiKey, field('baseUrl', 'Base URL'))),
  // The reference also requires apiURL and appID, which our Credentials object does not carry.
  // The reference's apiURL and appID, under the Credentials keys that carry them here.
  def('braze', 'email', 'Braze', mail(apiKey, field('baseUrl', 'REST endpoint'), field('applicationId', 'App ID'))),
  def('resend', 'email', 'Resend', mail(apiKey)),
  def('plunk', 'email', 'Plunk', mail(apiKey)),
  def('sparkpost', 'email', 'SparkPost', mail(apiKey, optional('region', 'Region'))),
  def('email-webhook', 'email', 'Email Webhook', mail(field('webhookUrl', 'Webhook URL'), webhookSecret(true))),
];

const SMS: ProviderDef[] = [
  def('svc-sms', 'sms', 'Demo SMS'),
  def('nexmo', 'sms', 'Nexmo', sms(apiKey, field('secretKey', 'API secret'))),
  def('plivo', 'sms', 'Plivo', sms(field('accountSid', 'Account SID'), field('token', 'Auth token'))),
  def('sms77', 'sms', 'sms77', sms(apiKey)),
  def('sns', 'sms', 'SNS', [...awsKeys, field('region', 'AWS region')]),
  def('telnyx', 'sms', 'Telnyx', sms(apiKey, field('messageProfileId', 'Message profile ID'))),
  def('messagebird', 'sms', 'MessageBird', sms(field('accessKey', 'Access key'))),
  def('twilio', 'sms', 'Twilio', sms(field('accountSid', 'Account SID'), field('token', 'Auth token'))),
  def('gupshup', 'sms', 'Gupshup', [field('user', 'User id'), field('password', 'Password')]),
  def('firetext', 'sms', 'Firetext', sms(apiKey)),
  def('infobip-sms', 'sms', 'Infobip', sms(apiKey, field('baseUrl', 'Base URL'))),
  def('burst-sms', 'sms', 'BurstSMS', [apiKey, field('secretKey', 'API Secret')]),
  def('bulk-sms', 'sms', 'BulkSMS', [field('apiToken', 'API Token'), optional('from', 'Sender ID')]),
  def('isend-sms', 'sms', 'iSend SMS', [field('apiToken', 'API Token'), optional('from', 'Default Sender ID')]),
  def('clickatell', 'sms', 'clickatell', [apiKey]),
  def('forty-six-elks', 'sms', '46elks', sms(field('user', 'Username'), field('password', 'Password'))),
  def(
    'kannel',
    'sms',
    'Kannel SMS',
    sms(field('host', 'Host'), field('port', 'Port'), optional('user', 'Username'), optional('password', 'Password')),
  ),
  def('maqsam', 'sms', 'Maqsam', sms(field('apiKey', 'Access Key ID'), field('secretKey', 'Access Secret'))),
  def('sms-central', 'sms', 'SMS Central', sms(field('user', 'Username'), field('password', 'Password'), optional('baseUrl', 'Base URL'))),
  def('termii', 'sms', 'Termii', sms(apiKey)),
  def('africas-talking', 'sms', "Africa's Talking", sms(apiKey, field('user', 'Username'))),
  def('sendchamp', 'sms', 'Sendchamp', sms(apiKey)),
  // Calls any HTTP SMS API; header names and response paths are configured per integration.
  def(
    'generic-sms',
    'sms',
    'Generic SMS',
    sms(
      field('baseUrl', 'Base URL'),
      field('apiKeyRequestHeader', 'API Key Request Header'),
      apiKey,
      optional('secretKeyRequestHeader', 'Secret Key Request Header'),
      optional('secretKey', 'Secret Key'),
      field('idPath', 'Id Path'),
      optional('datePath', 'Date Path'),
      optional('authenticateByToken', 'Authenticate by token'),
      optional('domain', 'Auth URL'),
      optional('authenticationTokenKey', 'Authentication Token Key'),
    ),
  ),
  def('clicksend', 'sms', 'Clicksend', sms(field('user', 'Username'), apiKey)),
  def('simpletexting', 'sms', 'SimpleTexting', sms(apiKey)),
  def('bandwidth', 'sms', 'Bandwidth', sms(field('user', 'Username'), field('password', 'Password'), field('accountSid', 'Account ID'))),
  def('azure-sms', 'sms', 'Azure Sms', sms(field('accessKey', 'Connection string'))),
  def(
    'ring-central',
    'sms',
    'RingCentral',
    sms(field('clientId', 'Client ID'), field('secretKey', 'Client secret'), optional('secure', 'Is sandbox'), field('token', 'JWT token')),
  ),
  def('brevo-sms', 'sms', 'Brevo', sms(apiKey)),
  def('eazy-sms', 'sms', 'Eazy', [apiKey, field('channelId', 'SMS Channel Id')]),
  def('mobishastra', 'sms', 'Mobishastra', sms(field('baseUrl', 'Base URL'), field('user', 'Username'), field('password', 'Password'))),
  def('afro-message', 'sms', 'Afro Message', sms(apiKey, field('senderName', 'Sender Name'))),
  def('unifonic', 'sms', 'Unifonic', sms(field('appSid', 'App SID'), field('senderId', 'Sender ID'))),
  def('smsmode', 'sms', 'smsmode', sms(apiKey)),
  def('imedia', 'sms', 'iMedia', sms(field('token', 'API Token'))),
  // The reference's servicePlanId, which our Credentials object has no key for, is its accountSid.
  def('sinch', 'sms', 'Sinch', sms(field('apiToken', 'API Token'), field('region', 'Region'), field('accountSid', 'Service Plan ID'))),
  def('isendpro-sms', 'sms', 'iSendPro', [apiKey, optional('from', 'Sender')]),
];

const PUSH: ProviderDef[] = [
  def('fcm', 'push', 'Firebase Cloud Messaging', [field('serviceAccount', 'Service Account (entire JSON file)')]),
  def('apns', 'push', 'APNs', [
    field('secretKey', 'Private Key'),
    field('apiKey', 'Key ID'),
    field('projectName', 'Team ID'),
    field('applicationId', 'Bundle ID'),
    optional('secure', 'Production'),
  ]),
  def('expo', 'push', 'Expo Push', [field('apiKey', 'Access Token')]),
  def('one-signal', 'push', 'OneSignal', [field('applicationId', 'Application ID'), apiKey]),
  def('pushpad', 'push', 'Pushpad', [field('apiKey', 'Auth Token'), field('applicationId', 'Project ID')]),
  def('push-webhook', 'push', 'Push Webhook', [field('webhookUrl', 'Webhook URL'), webhookSecret(true)]),
  def('pusher-beams', 'push', 'Pusher Beams', [field('instanceId', 'Instance ID'), field('secretKey', 'Secret Key')]),
  def('appio', 'push', 'AppIO', [field('AppIOBaseUrl', 'Base URL'), optional('apiKey', 'API Key (Ocp-Apim-Subscription-Key)')]),
];

const CHAT: ProviderDef[] = [
  // Built-in Slack app: the reference holds the app credentials, so the integration needs none;
  // here a bot token may be given to post to channels (docs/differences.md).
  def('svc-slack', 'chat', 'Built-in Slack', [slackBotToken]),
  def('slack', 'chat', 'Slack', [
    field('applicationId', 'App ID'),
    field('clientId', 'Client ID'),
    field('secretKey', 'Client Secret'),
    optional('redirectUrl', 'Redirect URL'),
    optional('hmac', 'HMAC'),
    slackBotToken,
  ]),
  // Webhook-based chat providers: the target URL comes per subscriber, not per integration.
  def('discord', 'chat', 'Discord'),
  // Webhook URLs per subscriber, or a bot (Azure bot registration: app id, secret, home tenant)
  // that customers' tenants connect to by admin consent (lib/channels, docs/chat.md).
  def('msteams', 'chat', 'MSTeams', [
    optional('clientId', 'Microsoft App ID'),
    optional('secretKey', 'Client Secret'),
    optional('tenantId', 'Directory (tenant) ID'),
    optional('redirectUrl', 'Redirect URL'),
    optional('hmac', 'HMAC'),
  ]),
  def('mattermost', 'chat', 'Mattermost'),
  def('ryver', 'chat', 'Ryver'),
  def('zulip', 'chat', 'Zulip'),
  def('grafana-on-call', 'chat', 'Grafana On Call Webhook', [
    optional('alertUid', 'Alert UID'),
    optional('title', 'Title'),
    optional('imageUrl', 'Image URL'),
    optional('state', 'Alert State'),
    optional('externalLink', 'External Link'),
  ]),
  def('getstream', 'chat', 'GetStream', [apiKey]),
  def('rocket-chat', 'chat', 'Rocket.Chat', [field('token', 'Personal Access Token (x-auth-token)'), field('user', 'User id (x-user-id)')]),
  def('whatsapp-business', 'chat', 'WhatsApp Business', [
    field('apiToken', 'Access API token'),
    field('phoneNumberIdentification', 'Phone Number Identification'),
    field('secretKey', 'App Secret'),
    optional('token', 'Verify Token'),
  ]),
  def('chat-webhook', 'chat', 'Chat Webhook', [webhookSecret(false)]),
  // Telegram: the bot's token; each subscriber's chat is linked through the bot's deep link
  // (createMobileLink, docs/chat.md).
  def('telegram', 'chat', 'Telegram', [field('apiToken', 'Bot Token')]),
];

const IN_APP: ProviderDef[] = [
  // HMAC only switches on subscriber-hash verification for the inbox; it is never required.
  def('svc', 'in_app', 'Inbox', [optional('hmac', 'Security HMAC encryption')]),
];

export const PROVIDERS: readonly ProviderDef[] = [...EMAIL, ...SMS, ...CHAT, ...PUSH, ...IN_APP];

/**
 * The provider id of the service itself (the in-app inbox). A job names it when no external
 * provider has a part in its step: digest, delay, throttle and custom steps, and channel steps
 * for which the environment had no integration.
 */
export const SERVICE_PROVIDER_ID = 'svc';

// ---- lookups ---------------------------------------------------------------------------------

const BY_ID: ReadonlyMap<string, ProviderDef> = new Map(PROVIDERS.map((p) => [p.id, p]));

export function findProvider(providerId: string): ProviderDef | undefined {
  return BY_ID.get(providerId);
}

/** Required credential keys that are missing or empty ('' / whitespace) in `credentials`. */
export function missingCredentials(provider: ProviderDef, credentials: Record<string, unknown>): CredentialKey[] {
  return provider.credentials.filter((f) => f.required && isBlank(credentials[f.key])).map((f) => f.key);
}

// A number (e.g. a port of 587) or boolean counts as present; only absent and blank values are missing.
function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}
