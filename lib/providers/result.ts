import { ProviderError, type DeliveryResult } from './provider.ts';

/** A provider's success answer; one without a message id counts as a failure, as in the reference. */
export function delivered(providerName: string, id: unknown, raw: unknown): DeliveryResult {
  if (id === undefined || id === null || id === '') throw new ProviderError(`${providerName} answered without a message id`, raw);
  return { id: String(id), raw };
}

/** The value at a dotted path of a JSON answer (`messages.0.id`). */
export function valueAt(root: unknown, path: string): unknown {
  let current = root;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** A provider that answered success but did not take the message (its status field says so). */
export function refused(providerName: string, reason: unknown, answer: { status: number; body: unknown }): ProviderError {
  const said = typeof reason === 'string' && reason.trim() !== '' ? reason.trim() : 'no reason given';
  return new ProviderError(`${providerName} refused the message: ${said}`, { status: answer.status, body: answer.body });
}
