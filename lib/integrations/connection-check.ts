import { BadRequestError } from '../errors.ts';
import { connectionCheck } from '../providers/credential-checks.ts';

// `check: true` on create or update tests the provider connection before saving, with the
// provider's own check (lib/providers/): only providers whose credentials can be tested without
// sending anything have one; for the others the flag changes nothing.

export async function checkConnection(providerId: string, credentials: Record<string, unknown>): Promise<void> {
  const check = connectionCheck(providerId);
  if (!check) return;
  try {
    await check({ providerId, credentials });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BadRequestError(`Integration check failed for ${providerId}: ${reason}`);
  }
}
