import { HeadlessService } from '@novu/headless';

// `@novu/headless` 2.6.6 as an app drives it, its callbacks turned into promises. Each client is
// given only what a product sets: applicationIdentifier, subscriberId (and hash), backendUrl and
// socketUrl. Retries are off so a refusal surfaces at once (the client retries 3 times by default).

type Callbacks<T> = { onSuccess: (data: T) => void; onError?: (error: unknown) => void; listener: (result: any) => void };

/** Runs one of the client's calls and resolves with what it handed `onSuccess` (rejects with its error). */
export function call<T>(run: (callbacks: Callbacks<T>) => unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    void Promise.resolve(run({ onSuccess: resolve, onError: reject, listener: () => undefined })).catch(reject);
  });
}

export interface HeadlessClient {
  service: HeadlessService;
  token: string;
  /** What the socket listeners were handed, in arrival order. */
  got: { received: any[]; unseen: number[]; unread: number[] };
  /** The client's socket.io socket (private in the client: for tests only). */
  socket(): any;
  close(): void;
}

export async function headlessClient(options: {
  applicationIdentifier: string;
  subscriberId: string;
  subscriberHash?: string;
  backendUrl: string;
  socketUrl: string;
}): Promise<HeadlessClient> {
  const service = new HeadlessService({ ...options, config: { retry: 0 } });
  const session = await call<{ token: string }>((cb) => service.initializeSession(cb));
  const got = { received: [] as any[], unseen: [] as number[], unread: [] as number[] };
  service.listenNotificationReceive({ listener: (message) => got.received.push(message) });
  service.listenUnseenCountChange({ listener: (count) => got.unseen.push(count) });
  service.listenUnreadCountChange({ listener: (count) => got.unread.push(count) });
  const socket = () => (service as unknown as { socket: any }).socket;
  return { service, token: session.token, got, socket, close: () => socket()?.disconnect() };
}
