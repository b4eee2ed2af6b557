import { demoProvider } from './demo.ts';
import type { DeliveryProvider } from './provider.ts';

// Provider id → delivery code. A provider of the catalogue that is not here cannot deliver yet;
// the pipeline records that as a failed step rather than pretending to send.

const PROVIDERS: Record<string, DeliveryProvider> = {
  'svc-email': demoProvider,
  'svc-sms': demoProvider,
};

export function deliveryProvider(providerId: string): DeliveryProvider | undefined {
  return PROVIDERS[providerId];
}
