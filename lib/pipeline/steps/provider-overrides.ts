import { deepMerge, objectOr } from '../../providers/deep-merge.ts';

// The trigger's overrides that reach a provider, as in the reference: `overrides.<channel>` merged
// with `overrides[providerId]` (message options: from, senderName, replyTo, cc, bcc, text,
// customData, ...), and `overrides.providers[providerId]` merged with
// `overrides.steps[stepId].providers[providerId]` (data merged into the provider's request).
// The more specific wins in each pair.

export interface ProviderOverrides {
  overrides: Record<string, unknown>;
  providerData: Record<string, unknown>;
}

export function providerOverrides(
  overrides: Record<string, unknown>,
  channel: string,
  providerId: string,
  stepId: string,
): ProviderOverrides {
  const at = (value: unknown, key: string) => (Object.hasOwn(objectOr(value), key) ? objectOr(objectOr(value)[key]) : {});
  return {
    overrides: deepMerge(at(overrides, channel), at(overrides, providerId)),
    providerData: deepMerge(at(overrides.providers, providerId), at(at(at(overrides.steps, stepId), 'providers'), providerId)),
  };
}
