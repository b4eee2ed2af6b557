import { describe, expect, it, vi } from 'vitest';
import { sendWithFailover, type Attempt } from '#lib/providers/failover.ts';
import { ProviderError } from '#lib/providers/provider.ts';
import type { StoredIntegration } from '#lib/integrations/repository.ts';
import { integrationOf } from '../support/deliveries.ts';

// The failover loop on its own: which integrations a send goes to, in which order, and when it
// stops (a success, a refusal, none left, or no whole send budget left before the lease ends).
// End to end through the pipeline: test/integration/failover.test.ts.

const named = (identifier: string): StoredIntegration => ({ ...integrationOf('twilio', 'sms', {}), _id: identifier, identifier });
const [a, b, c] = [named('a'), named('b'), named('c')];
const later = new Date(Date.now() + 60_000);

/** A send that fails as `outcomes` says for each integration (default: it delivers). */
function sender(outcomes: Record<string, 'transient' | 'refused'>) {
  return vi.fn(async (integration: StoredIntegration): Promise<Attempt> => {
    const outcome = outcomes[integration.identifier];
    if (!outcome) return { integration, result: { id: `id-${integration.identifier}` } };
    return { integration, error: new ProviderError(`${integration.identifier} ${outcome}`, undefined, outcome === 'transient') };
  });
}

describe('sendWithFailover', () => {
  it('goes on through the candidates in order while failures are transient, until one delivers', async () => {
    const send = sender({ a: 'transient', b: 'transient' });
    const attempts = await sendWithFailover(a, async () => [b, c], later, send);
    expect(attempts.map((t) => [t.integration.identifier, t.result?.id ?? t.error?.message])).toEqual([
      ['a', 'a transient'],
      ['b', 'b transient'],
      ['c', 'id-c'],
    ]);
  });

  it('reads no candidates when the first integration delivers', async () => {
    const candidates = vi.fn(async () => [b]);
    const attempts = await sendWithFailover(a, candidates, later, sender({}));
    expect(attempts).toHaveLength(1);
    expect(candidates).not.toHaveBeenCalled();
  });

  it('stops at a refusal', async () => {
    const send = sender({ a: 'refused' });
    const attempts = await sendWithFailover(a, async () => [b], later, send);
    expect(attempts.map((t) => t.error?.message)).toEqual(['a refused']);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('ends with the last failure when no candidate is left', async () => {
    const attempts = await sendWithFailover(a, async () => [b], later, sender({ a: 'transient', b: 'transient' }));
    expect(attempts.at(-1)!.error?.message).toBe('b transient');
  });

  it('starts no other integration when a whole send budget no longer fits before the lease ends', async () => {
    const send = sender({ a: 'transient' });
    const attempts = await sendWithFailover(a, async () => [b], new Date(Date.now() + 20_000), send);
    expect(attempts.map((t) => t.integration.identifier)).toEqual(['a']);
  });
});
