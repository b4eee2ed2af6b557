import type { SubscriberSession } from '../auth/session-token.ts';
import type { V1GlobalPreferencesInput, V1WorkflowPreferenceInput } from '../preferences/schemas.ts';
import { getV1Preferences, updateV1GlobalPreferences, updateV1WorkflowPreference } from '../preferences/v1.ts';
import { widgetCaller } from './subscriber.ts';

// The widget's preferences screen: the legacy v1 API's preferences (the same stored choices as
// the v2 API, the inbox and delivery) of the session's subscriber. The workflow list shows the
// channels each workflow uses, as the widget lists them; the global item shows every channel.

export async function widgetPreferences(session: SubscriberSession, level: 'global' | 'template') {
  const { scope, subscriberId } = await widgetCaller(session);
  return getV1Preferences(scope, subscriberId, level, level === 'global');
}

export async function updateWidgetWorkflowPreference(session: SubscriberSession, templateId: string, input: V1WorkflowPreferenceInput) {
  const { scope, subscriberId } = await widgetCaller(session);
  return updateV1WorkflowPreference(scope, subscriberId, templateId, input);
}

export async function updateWidgetGlobalPreferences(session: SubscriberSession, input: V1GlobalPreferencesInput) {
  const { scope, subscriberId } = await widgetCaller(session);
  return updateV1GlobalPreferences(scope, subscriberId, input);
}
