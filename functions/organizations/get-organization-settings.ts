import { route } from '#infra/routes/organizations.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getOrganizationSettings } from '#lib/accounts/organization-settings.ts';

export const handler = httpHandler(route('getOrganizationSettings'), ({ caller }) => getOrganizationSettings(caller));
