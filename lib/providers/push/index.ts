import type { DeliveryProvider } from '../provider.ts';
import { apns } from './apns.ts';
import { appio } from './appio.ts';
import { expo } from './expo.ts';
import { fcm } from './fcm.ts';
import { oneSignal } from './one-signal.ts';
import { pushWebhook } from './push-webhook.ts';
import { pushpad } from './pushpad.ts';
import { pusherBeams } from './pusher-beams.ts';

/** Push providers by catalogue id. */
export const PUSH_PROVIDERS = {
  fcm,
  apns,
  expo,
  'one-signal': oneSignal,
  pushpad,
  'push-webhook': pushWebhook,
  'pusher-beams': pusherBeams,
  appio,
} satisfies Record<string, DeliveryProvider>;
