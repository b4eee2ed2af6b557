import { findProvider } from '../../../lib/integrations/catalogue.ts';

// The words a person reads for the API's ids of step kinds, channels and providers (the
// elements in named.tsx keep the id on hover, for whoever writes it in a script).

const STEP_TYPE_LABELS: Record<string, string> = {
  in_app: 'In-app',
  email: 'Email',
  sms: 'SMS',
  chat: 'Chat',
  push: 'Push',
  digest: 'Digest',
  delay: 'Delay',
  throttle: 'Throttle',
  custom: 'Custom',
  trigger: 'Trigger',
  http_request: 'HTTP request',
};

/** `in_app` → `In-app`; an unknown kind as the API names it. */
export const stepTypeLabel = (type: string): string => STEP_TYPE_LABELS[type] ?? type;

/** The provider's name in the catalogue (`svc-email` → `Demo Email`); an unknown id as it is. */
export const providerLabel = (providerId: string): string => findProvider(providerId)?.displayName ?? providerId;
