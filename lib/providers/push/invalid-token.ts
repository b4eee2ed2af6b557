import { ProviderError } from '../provider.ts';

// The provider says this device token will never work again (uninstalled app, malformed token):
// the pipeline removes it from the subscriber instead of sending to it forever.
export class InvalidTokenError extends ProviderError {
  constructor(
    message: string,
    raw: unknown,
    readonly token: string,
  ) {
    super(message, raw);
    this.name = 'InvalidTokenError';
  }
}
