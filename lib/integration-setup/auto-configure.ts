import type { Caller } from '../auth/caller.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { findProvider } from '../integrations/catalogue.ts';
import { getIntegration, writeIntegration } from '../integrations/repository.ts';
import type { Integration } from '../integrations/schemas.ts';
import { toIntegration } from '../integrations/view.ts';
import { logger } from '../logger.ts';
import { configureSendgridEventWebhook } from '../providers/email/sendgrid-event-webhook.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { receiptsUrl } from './receipts-url.ts';

// auto-configure (`POST /v1/integrations/{integrationId}/auto-configure`): points the provider's
// event webhook at the integration's receipts URL through the provider's own API, and keeps the
// key its events are signed with in the integration's configurations, as the reference does.
// SendGrid is the provider whose API allows it; for the others a 400 says what to set by hand.
// A provider that refuses (a key without the permission) is an answer with `success: false` and
// its reason, as in the reference: the integration is unchanged.

type Configure = (credentials: Record<string, unknown>, url: string) => Promise<{ signingKey: string }>;

const CONFIGURERS: Record<string, Configure> = { sendgrid: configureSendgridEventWebhook };

export interface AutoConfigureResult {
  success: boolean;
  message?: string;
  integration?: Integration;
}

export async function autoConfigureIntegration(
  caller: Caller,
  integrationId: string,
  headers: Record<string, string | undefined>,
): Promise<AutoConfigureResult> {
  const current = await getIntegration(caller.organizationId, integrationId);
  if (!current) throw new NotFoundError(`Integration not found, id: ${integrationId}`);
  const url = receiptsUrl(headers, current._environmentId, current._id);
  const name = findProvider(current.providerId)?.displayName ?? current.providerId;
  const configure = Object.hasOwn(CONFIGURERS, current.providerId) ? CONFIGURERS[current.providerId] : undefined;
  if (!configure) {
    throw new BadRequestError(
      current.channel === 'email' || current.channel === 'sms'
        ? `${name} cannot be configured automatically: in ${name}'s dashboard, point its delivery-event webhook at ${url}, ` +
            `then set the signing key it shows as the integration's configurations.inboundWebhookSigningKey`
        : `${name} is a ${current.channel} provider: only email and sms providers post delivery events to receive`,
    );
  }
  let signingKey: string;
  try {
    ({ signingKey } = await configure(current.credentials, url));
  } catch (error) {
    logger.warn('Auto-configuration failed', { integrationId, providerId: current.providerId, error: error as Error });
    return { success: false, message: `Auto-configuration failed: ${(error as Error).message}` };
  }
  const saved = await retryOnStaleWrite(async () => {
    const latest = await getIntegration(caller.organizationId, integrationId);
    if (!latest) throw new NotFoundError(`Integration not found, id: ${integrationId}`);
    const configurations = { ...latest.configurations, inboundWebhookEnabled: true, inboundWebhookSigningKey: signingKey };
    return writeIntegration({
      save: { ...toIntegration(latest), configurations, updatedAt: new Date().toISOString() },
      expectedVersion: latest.version,
    });
  });
  // Only the integration's metadata: the credentials stay out of this answer, as in the reference.
  return {
    success: true,
    message: `${name} now posts its delivery events to ${url}`,
    integration: { ...toIntegration(saved), credentials: {} },
  };
}
