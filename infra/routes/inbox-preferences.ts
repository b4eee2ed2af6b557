import {
  bulkUpdatePreferencesBody,
  inboxPreferenceListSchema,
  inboxPreferenceSchema,
  listPreferencesQuery,
  updateGlobalPreferencesBody,
  updateWorkflowPreferencesBody,
  workflowPreferenceParams,
} from '#lib/inbox/preferences-schemas.ts';
import { routeLookup, type RouteDef } from '#lib/http/route.ts';
import { DEFAULT_BODY_LIMIT } from './body-limits.ts';

// The inbox's preferences (/v1/inbox/preferences…), called by `@novu/js` and `<Inbox />` with the
// subscriber's session token and answered in the {data} envelope. Part of the route table
// (infra/routes.ts); the handlers in functions/inbox/ take their entry from here.
// `…/bulk` and `…/global` are exact paths, which win over `…/{workflowIdOrIdentifier}` in API
// Gateway and in the local gateway alike.

export const inboxPreferenceRoutes = [
  {
    operationId: 'listInboxPreferences',
    method: 'GET',
    path: '/v1/inbox/preferences',
    handler: 'functions/inbox/list-inbox-preferences.ts',
    summary: "The session subscriber's global preferences, then those of each workflow the filters select",
    tag: 'Inbox',
    auth: 'subscriber',
    envelope: 'data',
    successStatus: 200,
    request: { query: listPreferencesQuery },
    repeatedQuery: true,
    response: inboxPreferenceListSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'getInboxGlobalPreferences',
    method: 'GET',
    path: '/v1/inbox/preferences/global',
    handler: 'functions/inbox/get-inbox-global-preferences.ts',
    summary: "The session subscriber's global preferences, with its delivery schedule",
    tag: 'Inbox',
    auth: 'subscriber',
    envelope: 'data',
    successStatus: 200,
    request: {},
    response: inboxPreferenceSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'updateInboxGlobalPreferences',
    method: 'PATCH',
    path: '/v1/inbox/preferences',
    handler: 'functions/inbox/update-inbox-global-preferences.ts',
    summary: "Change the session subscriber's global channels and schedule (what is not sent keeps its value)",
    tag: 'Inbox',
    auth: 'subscriber',
    envelope: 'data',
    successStatus: 200,
    request: { body: updateGlobalPreferencesBody },
    response: inboxPreferenceSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'bulkUpdateInboxPreferences',
    method: 'PATCH',
    path: '/v1/inbox/preferences/bulk',
    handler: 'functions/inbox/bulk-update-inbox-preferences.ts',
    summary: "Change the session subscriber's preferences of several workflows (each by id or identifier)",
    tag: 'Inbox',
    auth: 'subscriber',
    envelope: 'data',
    successStatus: 200,
    request: { body: bulkUpdatePreferencesBody },
    response: inboxPreferenceListSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
  {
    operationId: 'updateInboxWorkflowPreferences',
    method: 'PATCH',
    path: '/v1/inbox/preferences/{workflowIdOrIdentifier}',
    handler: 'functions/inbox/update-inbox-workflow-preferences.ts',
    summary: "Change the session subscriber's preferences of one workflow: its channels, or the whole workflow on or off",
    tag: 'Inbox',
    auth: 'subscriber',
    envelope: 'data',
    successStatus: 200,
    request: { params: workflowPreferenceParams, body: updateWorkflowPreferencesBody },
    response: inboxPreferenceSchema,
    maxBodyBytes: DEFAULT_BODY_LIMIT,
  },
] as const satisfies readonly RouteDef[];

export const route = routeLookup(inboxPreferenceRoutes);
