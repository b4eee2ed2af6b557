import { expect } from 'vitest';
import { ProviderError, type Delivery } from '#lib/providers/provider.ts';
import { deliveryProvider } from '#lib/providers/registry.ts';

// Calling a provider directly, as the pipeline's send step does, in the provider tests.

export function send(delivery: Delivery) {
  const provider = deliveryProvider(delivery.integration.providerId);
  if (!provider) throw new Error(`no provider ${delivery.integration.providerId}`);
  return provider.send(delivery);
}

/** The ProviderError the call ends with (the test fails if it succeeds or throws anything else). */
export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}
