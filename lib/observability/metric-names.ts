// What the service's metrics are called, apart from the module that emits them
// (lib/observability/metrics.ts), so the stack's dashboard and alarms (infra/constructs/) name
// the same metrics without loading Powertools.

export const METRICS_NAMESPACE = 'Notify';

export const METRIC = {
  /** Events accepted by a trigger route (a bulk request of 100 counts 100). */
  triggersAccepted: 'TriggersAccepted',
  /** Channel jobs completed: the provider accepted the message (in-app: it is stored). */
  deliveries: 'Deliveries',
  /** Channel jobs failed for good. */
  deliveryFailures: 'DeliveryFailures',
  /** From the trigger's acceptance to the provider's acceptance, per delivery (ms). */
  triggerToDeliveryLatency: 'TriggerToDeliveryLatency',
} as const;

/** Dimensions of the delivery metrics besides service and stage (never organization or environment). */
export const DELIVERY_DIMENSIONS = ['channel', 'provider'] as const;
