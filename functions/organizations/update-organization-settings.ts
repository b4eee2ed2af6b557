import { route } from '#infra/routes/organizations.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { updateOrganizationSettings } from '#lib/accounts/organization-settings.ts';

export const handler = idempotentHttpHandler(route('updateOrganizationSettings'), ({ caller, body }) =>
  updateOrganizationSettings(caller, body),
);
