import { getItem } from '../store/get-item.ts';
import { keys } from '../store/keys.ts';
import type { CategoryLimits } from './policy.ts';

// An organization's own API rate limits: `apiRateLimits` of its item (lib/accounts' Organization,
// set by create-organization or an operator). Read here, by the rate limits that apply them, so
// the organization's area does not depend on the limits' and the limits' not on it.

/** The organization's own API rate limits ({} when it has none), or undefined when there is no such organization. */
export async function getOrganizationRateLimits(organizationId: string): Promise<Partial<CategoryLimits> | undefined> {
  const item = await getItem(keys.organization(organizationId));
  if (!item) return undefined;
  return (item.apiRateLimits as Partial<CategoryLimits> | undefined) ?? {};
}
