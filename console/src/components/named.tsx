import { providerLabel, stepTypeLabel } from './names.ts';

// The step kind's and the provider's names as elements, the API's id on hover.

export function StepTypeName({ type }: { type: string }) {
  return <span title={type}>{stepTypeLabel(type)}</span>;
}

export function ProviderName({ providerId }: { providerId: string }) {
  return <span title={providerId}>{providerLabel(providerId)}</span>;
}
