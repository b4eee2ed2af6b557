import { getContextsByKeys } from '../contexts/repository.ts';
import type { Context } from '../contexts/schemas.ts';
import { environmentVariableValues } from '../environment-variables/values.ts';
import { CHANNELS_WITH_PRIMARY, type Channel } from '../integrations/catalogue.ts';
import { listIntegrationsOfChannel, type StoredIntegration } from '../integrations/repository.ts';
import type { EnvScope } from '../scope.ts';
import { ReadCache } from '../store/read-cache.ts';
import { getOrganizationSettings } from '../accounts/organization-settings.ts';
import { contentsOf, type ResourceRef } from '../translations/repository.ts';
import type { TranslationContent } from '../translations/schemas.ts';
import { getTenant } from '../tenants/repository.ts';
import type { TenantSnapshot } from './model.ts';
import { snapshotOf } from './tenant-snapshot.ts';
import { getWorkflowByDbId, type VersionedWorkflow } from '../workflows/repository.ts';

// What the consumers read for every delivery but which changes rarely: the workflow (by database
// id) and the environment's active integrations of a channel. Each container keeps them for a few
// seconds (bounded, least recently used out first); concurrent misses share one read, so the ten
// records of a batch read a workflow once. What it allows (docs/architecture.md):
// - a workflow is never older than the version the trigger was accepted with (the trigger and
//   the notification record it, and an older cached one is read again), so a trigger sent after
//   a change always runs the change; a job of an earlier trigger may run a version up to
//   CACHE_MS older than the newest;
// - an in-app integration deactivated or deleted may still be used for CACHE_MS (the other
//   channels' lists only name a job's provider before it runs; their sends select afresh).
// - a workflow's or layout's translations and the organization's default locale are never older
//   than the trigger: a read kept is used only for jobs of triggers accepted before it began, so a
//   translation changed before a trigger always renders, and a fan-out to 50,000 subscribers
//   (whose notifications all carry the trigger's time) reads them once per container per CACHE_MS.
// Nothing is cached when nothing is found, so a new workflow or integration is seen at once.
// A trigger's tenant is kept by the trigger (its segments read it once per container).

export const CACHE_MS = 5_000;
const MAX_ENTRIES = 500;

const workflows = new ReadCache<VersionedWorkflow>(CACHE_MS, MAX_ENTRIES);
const activeIntegrations = new ReadCache<StoredIntegration[]>(CACHE_MS, MAX_ENTRIES);
const triggerTenants = new ReadCache<TenantSnapshot>(CACHE_MS, MAX_ENTRIES);

const scopeKey = (scope: EnvScope) => `${scope.organizationId}/${scope.environmentId}`;

/** The workflow, at `minVersion` or newer when given (what its trigger was accepted with). */
export function cachedWorkflow(scope: EnvScope, workflowDbId: string, minVersion?: number): Promise<VersionedWorkflow | undefined> {
  return workflows.get(
    `${scopeKey(scope)}/${workflowDbId}`,
    () => getWorkflowByDbId(scope, workflowDbId),
    (workflow) => minVersion === undefined || workflow.version >= minVersion,
  );
}

/** The environment's active integrations of a channel, oldest first (ids sort by creation). */
function cachedActiveIntegrations(scope: EnvScope, channel: Channel): Promise<StoredIntegration[] | undefined> {
  return activeIntegrations.get(`${scopeKey(scope)}/${channel}`, async () => {
    const active = (await listIntegrationsOfChannel(scope, channel)).filter((i) => i.active);
    return active.length > 0 ? active : undefined;
  });
}

/** The environment's active in-app integration, if any. */
export async function cachedInAppIntegration(scope: EnvScope): Promise<StoredIntegration | undefined> {
  return (await cachedActiveIntegrations(scope, 'in_app'))?.[0];
}

/**
 * The integration a channel step would use when nothing in its trigger picks another (no
 * override, no tenant condition): the primary of email and sms, else the newest active one.
 */
export async function cachedDefaultIntegration(scope: EnvScope, channel: Channel): Promise<StoredIntegration | undefined> {
  const active = await cachedActiveIntegrations(scope, channel);
  return CHANNELS_WITH_PRIMARY.includes(channel) ? active?.find((i) => i.primary) : active?.at(-1);
}

/** A read with the time it began, for reads that must not be older than a trigger. */
interface Stamped<T> {
  readAt: number;
  value: T;
}
const translations = new ReadCache<Stamped<Record<string, TranslationContent>>>(CACHE_MS, MAX_ENTRIES);
const defaultLocales = new ReadCache<Stamped<string>>(CACHE_MS, MAX_ENTRIES);
const storedContexts = new ReadCache<Stamped<Context[]>>(CACHE_MS, MAX_ENTRIES);

/** `load` kept under `key` in `cache`, used again only if it began at or after `notBefore` (epoch ms). */
async function stampedRead<T>(cache: ReadCache<Stamped<T>>, key: string, notBefore: number, load: () => Promise<T>): Promise<T> {
  const read = await cache.get(
    key,
    async () => {
      const readAt = Date.now();
      return { readAt, value: await load() };
    },
    (entry) => entry.readAt >= notBefore,
  );
  return read!.value;
}

/** Every locale's content of a workflow or layout, read no earlier than `notBefore` (its trigger's time). */
export function cachedTranslations(
  scope: EnvScope,
  resource: Pick<ResourceRef, 'resourceType' | 'dbId'>,
  notBefore: number,
): Promise<Record<string, TranslationContent>> {
  const key = `${scopeKey(scope)}/${resource.resourceType}/${resource.dbId}`;
  return stampedRead(translations, key, notBefore, () => contentsOf(scope, resource));
}

const environmentVariables = new ReadCache<Stamped<Record<string, string>>>(CACHE_MS, MAX_ENTRIES);

/**
 * The environment's variables in clear (what templates see as `env`), read no earlier than
 * `notBefore` (the trigger's time): a value changed before a trigger always renders.
 */
export function cachedEnvironmentVariables(scope: EnvScope, notBefore: number): Promise<Record<string, string>> {
  return stampedRead(environmentVariables, scopeKey(scope), notBefore, () => environmentVariableValues(scope));
}

/** The organization's default locale, read no earlier than `notBefore`. */
export function cachedDefaultLocale(organizationId: string, notBefore: number): Promise<string> {
  return stampedRead(
    defaultLocales,
    organizationId,
    notBefore,
    async () => (await getOrganizationSettings({ organizationId })).defaultLocale,
  );
}

/**
 * The stored tenant a trigger names, for the segments of its audience: their messages come after
 * the walk that applied the trigger's update (fan-out.ts), and each trigger is its own entry.
 */
export function cachedTriggerTenant(scope: EnvScope, transactionId: string, identifier: string): Promise<TenantSnapshot | undefined> {
  return triggerTenants.get(`${scopeKey(scope)}/${transactionId}`, async () => {
    const tenant = await getTenant(scope, identifier);
    return tenant && snapshotOf(tenant);
  });
}

/**
 * The stored contexts of a notification's `type:id` keys, read no earlier than `notBefore` (its
 * trigger's time): a context changed before a trigger always renders, one changed after it by the
 * time its job runs, give or take CACHE_MS.
 */
export function cachedContexts(scope: EnvScope, contextKeys: readonly string[], notBefore: number): Promise<Context[]> {
  const key = `${scopeKey(scope)}/${contextKeys.join(',')}`;
  return stampedRead(storedContexts, key, notBefore, () => getContextsByKeys(scope, contextKeys));
}
