import { organizationSettingsSchema, patchOrganizationSettingsBody } from '#lib/accounts/settings-schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// The organization's settings (/v1/organizations/settings: the default locale translations fall
// back to, the target locales), answered in the reference's `{data}` envelope. Part of the route
// table (infra/routes.ts); the handlers in functions/organizations/ take their entry from here.

export const organizationRoutes = [
  {
    operationId: 'getOrganizationSettings',
    method: 'GET',
    path: '/v1/organizations/settings',
    handler: 'functions/organizations/get-organization-settings.ts',
    summary: "The organization's settings (default locale, target locales)",
    tag: 'Organizations',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: {},
    response: organizationSettingsSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'updateOrganizationSettings',
    method: 'PATCH',
    path: '/v1/organizations/settings',
    handler: 'functions/organizations/update-organization-settings.ts',
    summary: "Change the sent fields of the organization's settings",
    tag: 'Organizations',
    auth: 'apiKey',
    envelope: 'data',
    successStatus: 200,
    request: { body: patchOrganizationSettingsBody },
    response: organizationSettingsSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(organizationRoutes);
