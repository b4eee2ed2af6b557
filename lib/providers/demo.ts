import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ENV, optional } from '../config.ts';
import { logger } from '../logger.ts';
import type { Delivery, DeliveryProvider, DeliveryResult } from './provider.ts';

// The demo providers (svc-email, svc-sms) that every new environment starts with: they deliver
// to a sink instead of a real inbox or phone, so a workflow can be tried before any provider is
// configured. The sink is a directory of JSON lines (`DELIVERY_SINK_DIR`, which `npm start`
// sets to .local/outbox) or, without one, the log.

export const demoProvider: DeliveryProvider = {
  async send(delivery: Delivery): Promise<DeliveryResult> {
    const id = randomUUID();
    const record = {
      id,
      at: new Date().toISOString(),
      channel: delivery.channel,
      providerId: delivery.integration.providerId,
      environmentId: delivery.integration._environmentId,
      to: delivery.to,
      ...(delivery.subject !== undefined && { subject: delivery.subject }),
      content: delivery.content,
    };
    const dir = optional(ENV.deliverySinkDir);
    if (dir) {
      await mkdir(dir, { recursive: true });
      await appendFile(join(dir, `${delivery.channel}.jsonl`), `${JSON.stringify(record)}\n`);
    } else {
      logger.info('Demo provider delivery', { delivery: { id, channel: delivery.channel, to: delivery.to } });
    }
    return { id, raw: { id, accepted: [delivery.to] } };
  },
};
