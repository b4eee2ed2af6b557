import type { EnvScope } from '../store/keys.ts';
import type { LiveEvent } from './announce.ts';

// Sends an inbox event's frames to every open socket of the subscriber. (Being built: the socket
// connections, their store and the frame sender.)
export async function pushToSubscriber(_scope: EnvScope, _subscriberId: string, _event: Exclude<LiveEvent, { kind: 'wake' }>): Promise<void> {}
