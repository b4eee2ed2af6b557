import type { SubscriberSession } from '../auth/session-token.ts';
import { getItem } from '../store/get-item.ts';
import { keys } from '../store/keys.ts';
import { widgetCaller } from './subscriber.ts';

// GET /v1/widgets/organization: what the widget shows of the organization, its name. Branding
// (colours, logo, font) is not kept here, so none is answered and the widget uses its theme.

export async function widgetOrganization(session: SubscriberSession): Promise<{ _id: string; name: string }> {
  const { scope } = await widgetCaller(session);
  const organization = await getItem(keys.organization(scope.organizationId));
  return { _id: scope.organizationId, name: typeof organization?.name === 'string' ? organization.name : '' };
}
