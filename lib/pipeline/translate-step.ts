import { chooseLocale } from '../translations/resolve.ts';
import { mentionsTranslations, translateValues } from '../translations/translate.ts';
import type { JobContext } from './decision.ts';
import { DETAILS, detail } from './details.ts';
import type { ExecutionDetail } from './model.ts';
import { cachedDefaultLocale, cachedWorkflowTranslations } from './read-cache.ts';

// A channel step of a workflow with translations enabled renders from its control values with
// every `{{t.key}}` already replaced by the subscriber's locale's text (resolve.ts), in this one
// place for every channel: the steps render what they get as before. A key found in no locale is
// rendered as the key and named in a Warning detail; the step goes on (the reference fails it).
// A workflow without translations leaves `{{t.key}}` to Liquid, which renders it empty.

export async function translateStep(context: JobContext): Promise<{ context: JobContext; details: ExecutionDetail[] }> {
  const { workflow, step, scope, notification, subscriber, now } = context;
  if (!workflow.isTranslationEnabled || !mentionsTranslations(step.controlValues)) return { context, details: [] };
  const triggeredAt = Date.parse(notification.createdAt);
  const [contents, defaultLocale] = await Promise.all([
    cachedWorkflowTranslations(scope, workflow._id, triggeredAt),
    cachedDefaultLocale(scope.organizationId, triggeredAt),
  ]);
  const choice = chooseLocale(contents, subscriber?.locale, defaultLocale);
  const { values, missing } = translateValues(step.controlValues, choice.resolve);
  const translated = { ...context, step: { ...step, controlValues: values } };
  if (missing.length === 0) return { context: translated, details: [] };
  const locale = choice.locale ?? choice.requested ?? defaultLocale;
  const raw = { keys: missing, locale, defaultLocale };
  return { context: translated, details: [detail(DETAILS.translationMissing(missing, locale), 'Warning', { raw }, now)] };
}
