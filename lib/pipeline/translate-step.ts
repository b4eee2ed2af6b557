import type { ResourceRef } from '../translations/repository.ts';
import { chooseLocale } from '../translations/resolve.ts';
import { mentionsTranslations, translateValues } from '../translations/translate.ts';
import type { JobContext } from './decision.ts';
import { DETAILS, detail } from './details.ts';
import type { ExecutionDetail } from './model.ts';
import { cachedDefaultLocale, cachedTranslations } from './read-cache.ts';

// A channel step of a workflow with translations enabled renders from its control values with
// every `{{t.key}}` already replaced by the subscriber's locale's text (resolve.ts), in this one
// place for every channel: the steps render what they get as before. An email step's layout with
// translations enabled is translated the same way from its own translations (translateLayout). A
// key found in no locale is rendered as the key and named in a Warning detail; the step goes on
// (the reference fails it). Without translations `{{t.key}}` is left to Liquid, which renders it
// empty.

type Translatable = Record<string, unknown>;

/** The values with the resource's translations in the subscriber's locale put in; a Warning for keys found nowhere. */
async function translated<V extends Translatable>(
  context: JobContext,
  resource: Pick<ResourceRef, 'resourceType' | 'dbId'>,
  values: V,
): Promise<{ values: V; details: ExecutionDetail[] }> {
  const { scope, notification, subscriber, now } = context;
  if (!mentionsTranslations(values)) return { values, details: [] };
  const triggeredAt = Date.parse(notification.createdAt);
  const [contents, defaultLocale] = await Promise.all([
    cachedTranslations(scope, resource, triggeredAt),
    cachedDefaultLocale(scope.organizationId, triggeredAt),
  ]);
  const choice = chooseLocale(contents, subscriber?.locale, defaultLocale);
  const { values: out, missing } = translateValues(values, choice.resolve);
  if (missing.length === 0) return { values: out as V, details: [] };
  const locale = choice.locale ?? choice.requested ?? defaultLocale;
  const raw = { keys: missing, locale, defaultLocale, ...(resource.resourceType === 'layout' && { resourceType: 'layout' }) };
  return { values: out as V, details: [detail(DETAILS.translationMissing(missing, locale), 'Warning', { raw }, now)] };
}

export async function translateStep(context: JobContext): Promise<{ context: JobContext; details: ExecutionDetail[] }> {
  const { workflow, step } = context;
  if (!workflow.isTranslationEnabled) return { context, details: [] };
  const { values, details } = await translated(context, { resourceType: 'workflow', dbId: workflow._id }, step.controlValues);
  return { context: values === step.controlValues ? context : { ...context, step: { ...step, controlValues: values } }, details };
}

/** A layout's email controls, translated from the layout's own translations when it renders them. */
export async function translateLayout<E extends Translatable>(
  context: JobContext,
  layout: { dbId: string; isTranslationEnabled: boolean },
  email: E,
): Promise<{ email: E; details: ExecutionDetail[] }> {
  if (!layout.isTranslationEnabled) return { email, details: [] };
  const { values, details } = await translated(context, { resourceType: 'layout', dbId: layout.dbId }, email);
  return { email: values, details };
}
