import { demoProvider } from './demo.ts';
import { brazeProvider } from './email/braze.ts';
import { brevoProvider } from './email/brevo.ts';
import { emailjsProvider } from './email/emailjs.ts';
import { infobipEmailProvider } from './email/infobip.ts';
import { mailgunProvider } from './email/mailgun.ts';
import { mailersendProvider } from './email/mailersend.ts';
import { mailjetProvider } from './email/mailjet.ts';
import { mailtrapProvider } from './email/mailtrap.ts';
import { mandrillProvider } from './email/mandrill.ts';
import { netcoreProvider } from './email/netcore.ts';
import { outlook365Provider } from './email/outlook365.ts';
import { plunkProvider } from './email/plunk.ts';
import { postmarkProvider } from './email/postmark.ts';
import { resendProvider } from './email/resend.ts';
import { sendgridProvider } from './email/sendgrid.ts';
import { sesProvider } from './email/ses.ts';
import { smtpProvider } from './email/smtp.ts';
import { sparkpostProvider } from './email/sparkpost.ts';
import { emailWebhookProvider } from './email/webhook.ts';
import { afroMessageProvider } from './sms/afro-message.ts';
import { bulkSmsProvider } from './sms/bulk-sms.ts';
import { burstSmsProvider } from './sms/burst-sms.ts';
import { eazySmsProvider } from './sms/eazy-sms.ts';
import { firetextProvider } from './sms/firetext.ts';
import { fortySixElksProvider } from './sms/forty-six-elks.ts';
import { africasTalkingProvider } from './sms/africas-talking.ts';
import { azureSmsProvider } from './sms/azure-sms.ts';
import { bandwidthProvider } from './sms/bandwidth.ts';
import { brevoSmsProvider } from './sms/brevo.ts';
import { clickatellProvider } from './sms/clickatell.ts';
import { clicksendProvider } from './sms/clicksend.ts';
import { genericSmsProvider } from './sms/generic.ts';
import { gupshupProvider } from './sms/gupshup.ts';
import { imediaProvider } from './sms/imedia.ts';
import { infobipSmsProvider } from './sms/infobip.ts';
import { isendSmsProvider } from './sms/isend-sms.ts';
import { isendproProvider } from './sms/isendpro.ts';
import { kannelProvider } from './sms/kannel.ts';
import { maqsamProvider } from './sms/maqsam.ts';
import { messagebirdProvider } from './sms/messagebird.ts';
import { mobishastraProvider } from './sms/mobishastra.ts';
import { plivoProvider } from './sms/plivo.ts';
import { smsCentralProvider } from './sms/sms-central.ts';
import { ringCentralProvider } from './sms/ring-central.ts';
import { sendchampProvider } from './sms/sendchamp.ts';
import { simpletextingProvider } from './sms/simpletexting.ts';
import { sinchProvider } from './sms/sinch.ts';
import { sms77Provider } from './sms/sms77.ts';
import { smsmodeProvider } from './sms/smsmode.ts';
import { snsProvider } from './sms/sns.ts';
import { telnyxProvider } from './sms/telnyx.ts';
import { termiiProvider } from './sms/termii.ts';
import { twilioProvider } from './sms/twilio.ts';
import { unifonicProvider } from './sms/unifonic.ts';
import { vonageProvider } from './sms/vonage.ts';
import type { DeliverableProviderId } from './credential-checks.ts';
import type { DeliveryProvider } from './provider.ts';
import { CHAT_PROVIDERS } from './chat/index.ts';
import { PUSH_PROVIDERS } from './push/index.ts';

// Provider id → delivery code. A provider of the catalogue that is not here cannot deliver yet;
// the pipeline records that as a failed step rather than pretending to send. Which providers can
// deliver, their credential rules and connection checks are in credential-checks.ts (the
// integration routes' side, without the send code); the type makes this table cover its ids.

const PROVIDERS: Record<DeliverableProviderId, DeliveryProvider> = {
  'svc-email': demoProvider,
  'svc-sms': demoProvider,
  // email
  nodemailer: smtpProvider,
  ses: sesProvider,
  sendgrid: sendgridProvider,
  mailgun: mailgunProvider,
  postmark: postmarkProvider,
  resend: resendProvider,
  mailjet: mailjetProvider,
  sendinblue: brevoProvider,
  'email-webhook': emailWebhookProvider,
  mailersend: mailersendProvider,
  mailtrap: mailtrapProvider,
  mandrill: mandrillProvider,
  netcore: netcoreProvider,
  plunk: plunkProvider,
  sparkpost: sparkpostProvider,
  'infobip-email': infobipEmailProvider,
  braze: brazeProvider,
  outlook365: outlook365Provider,
  emailjs: emailjsProvider,
  // sms
  twilio: twilioProvider,
  sns: snsProvider,
  nexmo: vonageProvider,
  plivo: plivoProvider,
  telnyx: telnyxProvider,
  messagebird: messagebirdProvider,
  'infobip-sms': infobipSmsProvider,
  'generic-sms': genericSmsProvider,
  gupshup: gupshupProvider,
  firetext: firetextProvider,
  'burst-sms': burstSmsProvider,
  'bulk-sms': bulkSmsProvider,
  'isend-sms': isendSmsProvider,
  'forty-six-elks': fortySixElksProvider,
  kannel: kannelProvider,
  maqsam: maqsamProvider,
  'sms-central': smsCentralProvider,
  'eazy-sms': eazySmsProvider,
  mobishastra: mobishastraProvider,
  'afro-message': afroMessageProvider,
  imedia: imediaProvider,
  'isendpro-sms': isendproProvider,
  sinch: sinchProvider,
  bandwidth: bandwidthProvider,
  clickatell: clickatellProvider,
  termii: termiiProvider,
  'africas-talking': africasTalkingProvider,
  clicksend: clicksendProvider,
  sms77: sms77Provider,
  'brevo-sms': brevoSmsProvider,
  sendchamp: sendchampProvider,
  simpletexting: simpletextingProvider,
  'azure-sms': azureSmsProvider,
  'ring-central': ringCentralProvider,
  unifonic: unifonicProvider,
  smsmode: smsmodeProvider,
  ...CHAT_PROVIDERS,
  ...PUSH_PROVIDERS,
};

export function deliveryProvider(providerId: string): DeliveryProvider | undefined {
  return Object.hasOwn(PROVIDERS, providerId) ? PROVIDERS[providerId as DeliverableProviderId] : undefined;
}
