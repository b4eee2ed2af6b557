import { afterEach, describe, expect, it, vi } from 'vitest';
import { flushMetrics, recordDelivery, recordTriggersAccepted } from '#lib/observability/metrics.ts';

// The lines flushMetrics writes (CloudWatch EMF), as CloudWatch would read them: each line whole
// (its dimensions and properties), however many points an invocation recorded. Powertools
// flushes a line by itself when a metric reaches 100 values, and clears its dimensions then.

const scope = { organizationId: 'org-1', environmentId: 'env-1' };

function flushed(): Record<string, any>[] {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    flushMetrics();
    return write.mock.calls
      .map(([chunk]) => String(chunk))
      .filter((c) => c.startsWith('{"_aws":'))
      .map((c) => JSON.parse(c));
  } finally {
    write.mockRestore();
  }
}

afterEach(() => {
  flushed();
});

describe('metric lines', () => {
  it('write 150 deliveries as two whole lines: the count once, the latencies 100 and 50', () => {
    const acceptedAt = new Date(Date.now() - 1_000).toISOString();
    for (let i = 0; i < 150; i++)
      recordDelivery(scope, {
        channel: 'email',
        providerId: 'sendgrid',
        delivered: true,
        acceptedAt,
        deliveredAt: new Date(Date.parse(acceptedAt) + i),
      });
    const lines = flushed();
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatchObject({
        service: 'notify',
        stage: 'local',
        channel: 'email',
        provider: 'sendgrid',
        organizationId: 'org-1',
        environmentId: 'env-1',
      });
      expect(line._aws.CloudWatchMetrics[0].Dimensions).toEqual([
        ['service', 'stage', 'channel', 'provider'],
        ['service', 'stage'],
      ]);
    }
    expect(lines.map((l) => l.Deliveries)).toEqual([150, undefined]);
    expect(lines.map((l) => l.TriggerToDeliveryLatency.length)).toEqual([100, 50]);
    expect([...lines[0]!.TriggerToDeliveryLatency, ...lines[1]!.TriggerToDeliveryLatency]).toEqual(
      Array.from({ length: 150 }, (_, i) => i),
    );
  });

  it('keep environments and providers apart, and write nothing when nothing was recorded', () => {
    recordTriggersAccepted(scope, 3);
    recordTriggersAccepted({ ...scope, environmentId: 'env-2' }, 2);
    recordTriggersAccepted(scope, 0);
    recordDelivery(scope, {
      channel: 'sms',
      providerId: null,
      delivered: false,
      acceptedAt: new Date().toISOString(),
      deliveredAt: new Date(),
    });
    const lines = flushed();
    expect(lines.map((l) => [l.environmentId, l.TriggersAccepted, l.provider, l.DeliveryFailures])).toEqual([
      ['env-1', 3, undefined, undefined],
      ['env-2', 2, undefined, undefined],
      ['env-1', undefined, 'svc', 1],
    ]);
    expect(lines[0]!._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service', 'stage']]);
    expect(flushed()).toEqual([]);
  });
});
