import type { PublishCommandInput } from '@aws-sdk/client-sns';
import { awsClientConfig, callAws, withAwsProviderData } from '../aws.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from '../provider.ts';
import { delivered } from '../result.ts';
import { smsMessage } from './message.ts';

// Amazon SNS: Publish straight to a phone number. Credentials: apiKey = access key id,
// secretKey = secret access key, region. A sender (`from`) becomes the SMS sender id where the
// destination country allows one; trigger provider data merges into the Publish input.

const NAME = 'Amazon SNS';
// Loaded on the first send, not at init: the jobs consumer serves every provider, and few use SNS.
const sdk = () => import('@aws-sdk/client-sns');

async function send(delivery: Delivery): Promise<DeliveryResult> {
  const sms = smsMessage(delivery);
  const input: PublishCommandInput = withAwsProviderData(
    {
      PhoneNumber: sms.to,
      Message: sms.content,
      ...(sms.from && { MessageAttributes: { 'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: sms.from } } }),
    },
    delivery.providerData,
  );
  const { SNSClient, PublishCommand } = await sdk();
  const answer = await callAws(NAME, async (timeoutMs) => {
    const client = new SNSClient(awsClientConfig('sns', delivery.integration.credentials, timeoutMs));
    try {
      return await client.send(new PublishCommand(input), { abortSignal: AbortSignal.timeout(timeoutMs) });
    } finally {
      client.destroy();
    }
  });
  return delivered(NAME, answer.MessageId, { MessageId: answer.MessageId, requestId: answer.$metadata.requestId });
}

export const snsProvider: DeliveryProvider = { send };
