import * as z from '../zod.ts';
import { contextSchema } from '../events/schemas.ts';
import { scheduleSchema } from '../preferences/schemas.ts';
import { createSubscriberBody } from '../subscribers/schemas.ts';
import type { CountFilter } from './count.ts';
import type { DataCondition, InboxFilter } from './filter.ts';

// The inbox routes' inputs as `@novu/js` sends them (the package is the contract; docs/inbox.md):
// query strings with repeated keys (`tags[]=a&tags[]=b`, AND-of-OR groups as `tags[0][]=a`),
// booleans as 'true'/'false', `data` as JSON text.

const SEVERITY_VALUES = ['high', 'medium', 'low', 'none'] as const;
export const MAX_COUNT_FILTERS = 30;
const MAX_TAGS = 100;

// ---- session ---------------------------------------------------------------------------------

/** The context as sent is kept beside the parsed one: its HMAC is of what the page signed. */
export const keepContextAsSent = (body: unknown) =>
  body !== null && typeof body === 'object' && !Array.isArray(body) && 'context' in body
    ? { ...body, contextAsSent: (body as { context: unknown }).context }
    : body;

export const sessionBody = z.preprocess(
  keepContextAsSent,
  z.object({
    applicationIdentifier: z.optional(z.string().check(z.maxLength(256))),
    /** 2.x clients send the id at the top level. */
    subscriberId: z.optional(z.string()),
    /** An id, or the subscriber's profile. */
    subscriber: z.optional(z.union([z.string(), z.extend(createSubscriberBody, { subscriberId: z.optional(z.string()) })])),
    subscriberHash: z.optional(z.string().check(z.maxLength(512))),
    contextHash: z.optional(z.string().check(z.maxLength(512))),
    context: z.optional(contextSchema),
    contextAsSent: z.optional(z.unknown()),
    defaultSchedule: z.optional(scheduleSchema),
  }),
);
export type SessionInput = z.infer<typeof sessionBody>;

// ---- filters ---------------------------------------------------------------------------------

const bool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean({ error: 'must be true or false' }));
const epochMs = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  z.number({ error: 'must be a time in epoch milliseconds' }).check(z.int(), z.gte(0)),
);
const severity = z.enum(SEVERITY_VALUES, { error: `severity must be one of ${SEVERITY_VALUES.join(', ')}` });
const severities = z.preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(severity).check(z.maxLength(SEVERITY_VALUES.length)));
export const tag = z.string().check(z.minLength(1), z.maxLength(256));
const orGroup = z.object({ or: z.array(tag).check(z.maxLength(MAX_TAGS)) });
/** A list of tags (any of them), `{or}`, or `{and: [{or}, …]}`: normalized to AND-of-OR groups. */
export const tagFilter = z.pipe(
  z.union([z.array(tag).check(z.maxLength(MAX_TAGS)), orGroup, z.object({ and: z.array(orGroup).check(z.maxLength(MAX_TAGS)) })]),
  z.transform((t): string[][] => (Array.isArray(t) ? [t] : 'or' in t ? [t.or] : t.and.map((g) => g.or)).filter((g) => g.length > 0)),
);

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const scalarOrList = z.union([scalar, z.array(scalar).check(z.minLength(1), z.maxLength(100))]);
const valueCondition = z.union([
  scalarOrList,
  z.object({ or: z.array(scalar).check(z.minLength(1), z.maxLength(100)) }),
  z.object({ and: z.array(z.object({ or: z.array(scalar).check(z.minLength(1), z.maxLength(100)) })).check(z.maxLength(20)) }),
]);
/**
 * `data`: top-level keys AND-ed, each a scalar (equal), a list or `{or}` (any of), `{and: [{or}]}`
 * (each group), or an object one level deep following the same rules.
 */
export const dataFilter = z.pipe(
  z.record(
    z.string().check(z.minLength(1), z.maxLength(256)),
    z.union([valueCondition, z.record(z.string().check(z.minLength(1), z.maxLength(256)), valueCondition)]),
  ),
  z.transform((data) => {
    const out: DataCondition[] = [];
    const add = (path: string[], c: z.infer<typeof valueCondition>) => {
      if (typeof c !== 'object') out.push({ path, values: [c] });
      else if (Array.isArray(c)) out.push({ path, values: c });
      else if ('or' in c) out.push({ path, values: c.or });
      else for (const group of c.and) out.push({ path, values: group.or });
    };
    for (const [key, c] of Object.entries(data)) {
      if (c !== null && typeof c === 'object' && !Array.isArray(c) && !('or' in c) && !('and' in c)) {
        for (const [inner, ic] of Object.entries(c as Record<string, z.infer<typeof valueCondition>>)) add([key, inner], ic);
      } else add([key], c as z.infer<typeof valueCondition>);
    }
    return out;
  }),
);
export const jsonText = <S extends z.ZodMiniType>(schema: S, field: string) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return Symbol.for(`${field} must be JSON`);
    }
  }, schema);

/** A filter as the count endpoint's `filters` and the UI's tabs send it (an object). */
export const filterObject = z.object({
  tags: z.optional(tagFilter),
  read: z.optional(bool),
  seen: z.optional(bool),
  archived: z.optional(bool),
  snoozed: z.optional(bool),
  data: z.optional(jsonText(dataFilter, 'data')),
  severity: z.optional(severities),
  createdGte: z.optional(epochMs),
  createdLte: z.optional(epochMs),
});

const normalized = (f: Partial<Record<keyof InboxFilter, unknown>>): InboxFilter =>
  Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as InboxFilter;

// ---- list ------------------------------------------------------------------------------------

const TAG_GROUP_KEY = /^tags\[(\d{1,2})\]\[\]$/;
export const list = <S extends z.ZodMiniType>(item: S) =>
  z.preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(item).check(z.maxLength(MAX_TAGS)));

/**
 * The list's query as the route receives it (a repeated key as a list): `tags[]` (any of) or
 * AND-of-OR groups `tags[<n>][]`, `severity` or `severity[]`, the flags, `data` as JSON text.
 * Folded into one filter by `listRequest`.
 */
export const listQueryShape = {
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 10),
  // Empty is not a cursor (the client sends `after` only with an id).
  after: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  offset: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(10_000)), 0),
  'tags[]': z.optional(list(tag)),
  severity: z.optional(severities),
  'severity[]': z.optional(severities),
  read: z.optional(bool),
  seen: z.optional(bool),
  archived: z.optional(bool),
  snoozed: z.optional(bool),
  data: z.optional(z.string().check(z.maxLength(4096))),
  createdGte: z.optional(epochMs),
  createdLte: z.optional(epochMs),
};

/** What the shape alone cannot check: the tag groups' values, and `data` as a filter. */
export const listQueryChecks = z.superRefine((q: Record<string, unknown>, ctx) => {
  for (const [key, value] of Object.entries(q)) {
    if (TAG_GROUP_KEY.test(key) && !list(tag).safeParse(value).success)
      ctx.addIssue({ code: 'custom', message: 'tags must be strings', path: [key] });
  }
  if (q.data !== undefined) {
    for (const issue of jsonText(dataFilter, 'data').safeParse(q.data).error?.issues ?? [])
      ctx.addIssue({ code: 'custom', message: issue.message, path: ['data', ...(issue.path as PropertyKey[])] });
  }
});

export const listQuery = z.looseObject(listQueryShape).check(listQueryChecks);
export type ListQueryInput = z.infer<typeof listQuery>;

export interface ListRequest {
  limit: number;
  after?: string;
  offset: number;
  filter: InboxFilter;
  /** The filter as the answer echoes it. */
  echo: Record<string, unknown>;
}

/** The validated query as one request: the tag keys folded into AND-of-OR groups, `data` parsed. */
export function listRequest(q: ListQueryInput): ListRequest {
  const groups = Object.entries(q)
    .flatMap(([key, value]) => {
      const match = TAG_GROUP_KEY.exec(key);
      return match ? [{ index: Number(match[1]), tags: [value].flat() as string[] }] : [];
    })
    .sort((a, b) => a.index - b.index)
    .map((g) => g.tags);
  const tags = groups.length > 0 ? groups : q['tags[]']?.length ? [q['tags[]']] : undefined;
  const dataAsSent = q.data === undefined ? undefined : (JSON.parse(q.data) as unknown);
  const flags = {
    read: q.read,
    seen: q.seen,
    archived: q.archived,
    snoozed: q.snoozed,
    severity: q.severity ?? q['severity[]'],
    createdGte: q.createdGte,
    createdLte: q.createdLte,
  };
  const filter = normalized({ ...flags, tags, data: q.data === undefined ? undefined : dataFilter.parse(dataAsSent) });
  const tagsEcho = tags && (tags.length === 1 ? tags[0] : { and: tags.map((or) => ({ or })) });
  return { limit: q.limit, after: q.after, offset: q.offset, filter, echo: { ...flags, tags: tagsEcho, data: dataAsSent } };
}

// ---- count -----------------------------------------------------------------------------------

/**
 * The `filters` of a count, each checked against `filter`, normalized, and kept as sent (the
 * answer echoes it: the UI keys its badges on it); a filter's `contextKeys`, where `filter` has
 * them, are kept apart.
 */
export const countFilters = (filter: z.ZodMiniType<Partial<Record<keyof InboxFilter, unknown>> & { contextKeys?: string[] }>) => {
  const one = z.pipe(
    z.record(z.string(), z.unknown(), { error: 'each filter must be an object' }).check(
      z.superRefine((raw, ctx) => {
        for (const issue of filter.safeParse(raw).error?.issues ?? [])
          ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path as PropertyKey[] });
      }),
    ),
    z.transform((raw): CountFilter => {
      const { contextKeys, ...rest } = filter.parse(raw);
      return { echo: raw, filter: normalized(rest), ...(contextKeys && { contextKeys }) };
    }),
  );
  return jsonText(
    z.array(one).check(z.minLength(1), z.maxLength(MAX_COUNT_FILTERS, `filters must have at most ${MAX_COUNT_FILTERS} items`)),
    'filters',
  );
};

export const countQuery = z.object({ filters: countFilters(filterObject) });

// ---- actions ---------------------------------------------------------------------------------

export const notificationParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

export const snoozeBody = z.object({ snoozeUntil: z.iso.datetime({ offset: true, error: 'snoozeUntil must be an ISO 8601 date' }) });

export const actionBody = z.object({ actionType: z.enum(['primary', 'secondary'], { error: 'actionType must be primary or secondary' }) });

/** The bulk actions: which messages (by tags and data; seen also by ids). `data` comes as JSON text. */
export const bulkBody = z.object({
  tags: z.optional(
    z.pipe(
      z.array(tag).check(z.maxLength(MAX_TAGS)),
      z.transform((t) => (t.length > 0 ? [t] : [])),
    ),
  ),
  data: z.optional(jsonText(dataFilter, 'data')),
});

export const seenBody = z.extend(bulkBody, {
  notificationIds: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(100))),
});
