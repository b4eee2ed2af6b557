import {
  catalogueSchema,
  headerNameCheck,
  isBlank,
  isHeaderName,
  isHttpUrl,
  portCheck,
  urlCheck,
  type CredentialRules,
  type ValueCheck,
} from './credential-schema.ts';
import { checkBrazeConnection } from './email/braze.ts';
import { checkBrevoConnection } from './email/brevo.ts';
import { checkEmailjsConnection } from './email/emailjs.ts';
import { checkMailersendConnection } from './email/mailersend.ts';
import { checkMandrillConnection } from './email/mandrill.ts';
import { checkOutlook365Connection } from './email/outlook365.ts';
import { checkPostmarkConnection } from './email/postmark.ts';
import { checkSendgridConnection } from './email/sendgrid.ts';
import { checkSmtpConnection } from './email/smtp.ts';
import type { ConnectionTarget } from './provider.ts';
import { parseApnsKey } from './push/apns-token.ts';
import { parseCheck } from './push/checked-field.ts';
import { checkFcmConnection } from './push/fcm.ts';
import { isInstanceId } from './push/pusher-beams.ts';
import { checkSlackConnection } from './chat/slack.ts';
import { slackBotToken } from './chat/slack-target.ts';
import { parseServiceAccount } from './push/google-oauth.ts';
import { checkBulkSmsConnection } from './sms/bulk-sms.ts';
import { checkBurstSmsConnection } from './sms/burst-sms.ts';
import { checkFortySixElksConnection } from './sms/forty-six-elks.ts';
import { checkIsendSmsConnection } from './sms/isend-sms.ts';
import { checkIsendproConnection } from './sms/isendpro.ts';
import { checkAfricasTalkingConnection } from './sms/africas-talking.ts';
import { parseAzureConnectionString } from './sms/azure-sms.ts';
import { checkBandwidthConnection } from './sms/bandwidth.ts';
import { checkBrevoSmsConnection } from './sms/brevo.ts';
import { checkClicksendConnection } from './sms/clicksend.ts';
import { checkRingCentralConnection } from './sms/ring-central.ts';
import { checkSendchampConnection } from './sms/sendchamp.ts';
import { checkSinchConnection, sinchRegionCheck } from './sms/sinch.ts';
import { checkTermiiConnection } from './sms/termii.ts';
import { checkTwilioConnection } from './sms/twilio.ts';

// The integration routes' side of the providers: which ones can deliver, what their credentials
// must be when an integration is active, and how `check: true` tests them. Their send code is in
// registry.ts (whose type makes it cover every id here), so an integration route does not bundle
// it and the pipeline does not bundle the credential schemas (zod). A check function lives in its
// provider's module, next to the endpoints it shares with send.

interface ProviderCredentials {
  /** Checks of present values on top of the catalogue's required fields (credential-schema.ts). */
  checks?: Record<string, ValueCheck>;
  /** Rules between fields. */
  rules?: CredentialRules;
  /** Tests the credentials without sending anything; throws when they fail. */
  checkConnection?(integration: ConnectionTarget): Promise<void>;
  /** Whether these credentials give the check anything to test (default: they do). */
  checkable?(credentials: Record<string, unknown>): boolean;
}

const genericSmsRules: CredentialRules = (c, report) => {
  if (c.authenticateByToken !== true) return;
  if (isBlank(c.domain)) report('domain', 'domain (the auth URL) is required when authenticateByToken is set');
  else if (!isHttpUrl(c.domain)) report('domain', 'domain must be an http(s) URL');
  if (!isHeaderName(c.authenticationTokenKey))
    report('authenticationTokenKey', 'authenticationTokenKey (a header name) is required when authenticateByToken is set');
};

// Kannel's host: a host name or address, or an http(s) origin.
const hostCheck: ValueCheck = (value) => (isHttpUrl(value) ? undefined : 'host must be a host name or an http(s) origin');
// Slack's bot token, when given, is one Slack issued (xoxb-, xoxp-...); auth.test checks it.
// Without one there is nothing to test: the webhook URLs are the subscribers'.
const slackCredentials: ProviderCredentials = {
  checks: {
    apiToken: (v) => (typeof v === 'string' && /^xox[a-z]-\S+$/.test(v.trim()) ? undefined : 'apiToken must be a Slack token (xoxb-...)'),
  },
  checkConnection: checkSlackConnection,
  checkable: (credentials) => slackBotToken(credentials) !== undefined,
};

const PROVIDERS = {
  'svc-email': {},
  'svc-sms': {},
  // email
  nodemailer: { checks: { port: portCheck('port') }, checkConnection: checkSmtpConnection },
  ses: {},
  sendgrid: { checkConnection: checkSendgridConnection },
  mailgun: {},
  postmark: { checkConnection: checkPostmarkConnection },
  resend: {},
  mailjet: {},
  sendinblue: { checkConnection: checkBrevoConnection },
  'email-webhook': { checks: { webhookUrl: urlCheck('webhookUrl') } },
  mailersend: { checkConnection: checkMailersendConnection },
  mailtrap: {},
  mandrill: { checkConnection: checkMandrillConnection },
  netcore: {},
  plunk: {},
  sparkpost: {},
  'infobip-email': { checks: { baseUrl: urlCheck('baseUrl') } },
  braze: { checks: { baseUrl: urlCheck('baseUrl') }, checkConnection: checkBrazeConnection },
  outlook365: { checkConnection: checkOutlook365Connection },
  emailjs: { checks: { port: portCheck('port') }, checkConnection: checkEmailjsConnection },
  // sms
  twilio: { checkConnection: checkTwilioConnection },
  sns: {},
  nexmo: {},
  plivo: {},
  telnyx: {},
  messagebird: {},
  'infobip-sms': {},
  'generic-sms': {
    checks: {
      apiKeyRequestHeader: headerNameCheck('apiKeyRequestHeader'),
      secretKeyRequestHeader: headerNameCheck('secretKeyRequestHeader'),
    },
    rules: genericSmsRules,
  },
  gupshup: {},
  firetext: {},
  'burst-sms': { checkConnection: checkBurstSmsConnection },
  'bulk-sms': { checkConnection: checkBulkSmsConnection },
  'isend-sms': { checkConnection: checkIsendSmsConnection },
  'forty-six-elks': { checkConnection: checkFortySixElksConnection },
  kannel: { checks: { host: hostCheck, port: portCheck('port') } },
  maqsam: {},
  'sms-central': {},
  'eazy-sms': {},
  mobishastra: {},
  'afro-message': {},
  imedia: {},
  'isendpro-sms': { checkConnection: checkIsendproConnection },
  sinch: { checks: { region: sinchRegionCheck }, checkConnection: checkSinchConnection },
  bandwidth: { checkConnection: checkBandwidthConnection },
  clickatell: {},
  termii: { checkConnection: checkTermiiConnection },
  'africas-talking': { checkConnection: checkAfricasTalkingConnection },
  clicksend: { checkConnection: checkClicksendConnection },
  sms77: {},
  'brevo-sms': { checkConnection: checkBrevoSmsConnection },
  sendchamp: { checkConnection: checkSendchampConnection },
  simpletexting: {},
  'azure-sms': { checks: { accessKey: parseCheck(parseAzureConnectionString) } },
  'ring-central': { checkConnection: checkRingCentralConnection },
  unifonic: {},
  smsmode: {},
  // chat
  slack: slackCredentials,
  discord: {},
  msteams: {},
  mattermost: {},
  'rocket-chat': {},
  zulip: {},
  'grafana-on-call': {},
  'chat-webhook': {},
  'whatsapp-business': {},
  'svc-slack': slackCredentials,
  ryver: {},
  getstream: {},
  telegram: {},
  // push: the service account must be one Google can sign in with, the APNs key a usable key.
  fcm: { checks: { serviceAccount: parseCheck(parseServiceAccount) }, checkConnection: checkFcmConnection },
  apns: { checks: { secretKey: parseCheck(parseApnsKey) } },
  expo: {},
  'one-signal': {},
  pushpad: {},
  'push-webhook': { checks: { webhookUrl: urlCheck('webhookUrl') } },
  'pusher-beams': {
    checks: {
      instanceId: (v) => (isInstanceId(v) ? undefined : 'instanceId must be a Pusher Beams instance id (letters, digits and dashes)'),
    },
  },
  appio: { checks: { AppIOBaseUrl: urlCheck('AppIOBaseUrl') } },
} satisfies Record<string, ProviderCredentials>;

export type DeliverableProviderId = keyof typeof PROVIDERS;

const credentialsOf = (providerId: string): ProviderCredentials | undefined =>
  Object.hasOwn(PROVIDERS, providerId) ? (PROVIDERS as Record<string, ProviderCredentials>)[providerId] : undefined;

/** Whether an integration of this provider can be active: in-app needs no delivery code. */
export function canDeliver(providerId: string, channel: string): boolean {
  return channel === 'in_app' || credentialsOf(providerId) !== undefined;
}

/**
 * What an active integration's credentials must satisfy: the catalogue's required fields, plus the
 * provider's checks and rules when it can deliver.
 */
export function credentialSchema(providerId: string) {
  const credentials = credentialsOf(providerId);
  return catalogueSchema(providerId, credentials?.checks, credentials?.rules);
}

/** The provider's connection check (`check: true`), if these credentials can be tested without sending. */
export function connectionCheck(
  providerId: string,
  credentials: Record<string, unknown>,
): ((integration: ConnectionTarget) => Promise<void>) | undefined {
  const provider = credentialsOf(providerId);
  return provider?.checkable?.(credentials) === false ? undefined : provider?.checkConnection;
}
