import type { SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { awsClientConfig, callAws, withAwsProviderData } from '../aws.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { ProviderError } from '../provider.ts';
import { emailMessage, formatAddress } from './message.ts';

// Amazon SES, API v2 SendEmail with simple content. Credentials: apiKey = access key id,
// secretKey = secret access key, region. Trigger provider data merges into the SendEmail input
// (ConfigurationSetName, EmailTags, ...).

const NAME = 'Amazon SES';
// Loaded on the first send, not at init: the jobs consumer serves every provider, and few use SES.
const sdk = () => import('@aws-sdk/client-sesv2');
const utf8 = (Data: string) => ({ Data, Charset: 'UTF-8' });

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const mail = emailMessage(delivery);
  const headers = Object.entries(mail.headers).map(([Name, Value]) => ({ Name, Value }));
  const input: SendEmailCommandInput = withAwsProviderData(
    {
      FromEmailAddress: formatAddress(mail.from),
      Destination: {
        ToAddresses: mail.to,
        ...(mail.cc.length > 0 && { CcAddresses: mail.cc }),
        ...(mail.bcc.length > 0 && { BccAddresses: mail.bcc }),
      },
      ...(mail.replyTo && { ReplyToAddresses: [mail.replyTo] }),
      Content: {
        Simple: {
          Subject: utf8(mail.subject),
          Body: { Html: utf8(mail.html), ...(mail.text && { Text: utf8(mail.text) }) },
          ...(headers.length > 0 && { Headers: headers }),
        },
      },
    },
    delivery.providerData,
  );
  const { SESv2Client, SendEmailCommand } = await sdk();
  const answer = await callAws(NAME, async (timeoutMs) => {
    const client = new SESv2Client(awsClientConfig('ses', delivery.integration.credentials, timeoutMs));
    try {
      return await client.send(new SendEmailCommand(input), { abortSignal: AbortSignal.timeout(timeoutMs) });
    } finally {
      client.destroy();
    }
  });
  if (!answer.MessageId) throw new ProviderError(`${NAME} answered without a message id`, { answer });
  return { id: answer.MessageId, raw: { MessageId: answer.MessageId, requestId: answer.$metadata.requestId } };
}

export const sesProvider: DeliveryProvider = { send };
