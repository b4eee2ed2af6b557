import { BadRequestError } from '../errors.ts';
import { connectionCheck } from '../providers/credential-checks.ts';

// `check: true` on create or update tests the provider connection before saving, with the
// provider's own check (lib/providers/): only providers whose credentials can be tested without
// sending anything have one (Slack: only with a bot token); for the others nothing is tested,
// and the answer says so (uncheckedNotice, sent as a warning by the integration routes).

export async function checkConnection(providerId: string, credentials: Record<string, unknown>): Promise<void> {
  const check = connectionCheck(providerId, credentials);
  if (!check) return;
  try {
    await check({ providerId, credentials });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BadRequestError(`Integration check failed for ${providerId}: ${reason}`);
  }
}

/** What the answer says when `check: true` could test nothing: undefined when the provider has a check. */
export function uncheckedNotice(providerId: string, credentials: Record<string, unknown>): string | undefined {
  return connectionCheck(providerId, credentials)
    ? undefined
    : `${providerId} has no call that tests credentials without sending anything: they were not checked`;
}
