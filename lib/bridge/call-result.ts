// What a call to a customer's bridge comes to, apart from the call itself (client.ts): what the
// API's handlers, which never call a bridge themselves (lib/bridge/outbound-*.ts), share with the consumers
// that do.

export type BridgeAction = 'discover' | 'health-check' | 'execute' | 'preview';

export interface BridgeAnswer {
  status: number;
  body: unknown;
  durationMs: number;
  attempts: number;
}

/** The bridge could not be reached, or answered with an error; `status` is absent when no answer came. */
export class BridgeCallError extends Error {
  constructor(
    message: string,
    readonly outcome: { status?: number; code?: string; data?: unknown; durationMs: number; attempts: number },
  ) {
    super(message);
    this.name = 'BridgeCallError';
  }
}
