import { ProviderError } from './provider.ts';

// A provider refused the connection token itself (Slack's invalid_auth or token_revoked, an HTTP
// 401): retrying cannot help, and the connection is marked so its owner sees it must reconnect.

export class RevokedTokenError extends ProviderError {
  constructor(
    message: string,
    /** The provider's reason as it gave it (`token_revoked`, `invalid_auth`, `401`). */
    readonly reason: string,
    raw?: unknown,
  ) {
    super(message, raw);
    this.name = 'RevokedTokenError';
  }
}

/** Slack's error codes that say the token no longer works. */
export const SLACK_REVOKED_TOKEN_ERRORS = new Set(['invalid_auth', 'token_revoked', 'account_inactive', 'not_authed', 'token_expired']);
