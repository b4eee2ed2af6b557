// The activity filters live in the URL's query string, under the names GET /v1/notifications
// takes (lists as repeated keys), so a copied URL shows the same page and back/forward walk
// through the filters applied. This module turns the URL into the API's query and the form's
// fields into the URL.

/** Filters given as several values: repeated in the URL, comma-separated in the form's text fields. */
export const LIST_FILTERS = ['channels', 'templates', 'emails', 'subscriberIds', 'severity', 'transactionId'] as const;
/** Filters given as one value. */
export const TEXT_FILTERS = ['topicKey', 'search'] as const;
/** Dates: ISO instants in the URL, the browser's local time in the form. */
export const DATE_FILTERS = ['after', 'before'] as const;

export const CHANNELS = [
  ['in_app', 'In-app'],
  ['email', 'Email'],
  ['sms', 'SMS'],
  ['chat', 'Chat'],
  ['push', 'Push'],
] as const;
export const SEVERITIES = ['high', 'medium', 'low', 'none'] as const;

/** Page sizes to choose from (the API takes 1 to 50); the first when the URL names none. */
export const PAGE_SIZES = [20, 10, 50] as const;

/** The URL's page size, kept within what the API takes. */
export function limitOf(params: URLSearchParams): number {
  const limit = Math.floor(Number(params.get('limit')));
  return limit >= 1 ? Math.min(limit, 50) : PAGE_SIZES[0];
}

/** The feed's query parameters (a `Query` of the API client; this module imports nothing, so unit tests load it alone). */
export type ActivityQuery = Record<string, string | number | string[]>;

/** The API query for the page the URL shows. */
export function activityQuery(params: URLSearchParams): ActivityQuery {
  const query: ActivityQuery = { page: pageOf(params), limit: limitOf(params) };
  for (const name of LIST_FILTERS) {
    const values = params.getAll(name).filter(Boolean);
    if (values.length > 0) query[name] = values;
  }
  for (const name of [...TEXT_FILTERS, ...DATE_FILTERS]) {
    const value = params.get(name);
    if (value) query[name] = value;
  }
  return query;
}

export const pageOf = (params: URLSearchParams): number => Math.max(0, Math.floor(Number(params.get('page')) || 0));

/** True when the URL narrows the feed at all (the empty state then says to loosen the filters). */
export const isFiltered = (params: URLSearchParams): boolean =>
  [...LIST_FILTERS, ...TEXT_FILTERS, ...DATE_FILTERS].some((name) => params.getAll(name).some(Boolean));

/** The URL's query for the form's fields; the first page of the new filter. */
export function paramsOfForm(form: FormData): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of LIST_FILTERS) {
    for (const value of form.getAll(name)) for (const item of splitList(String(value))) params.append(name, item);
  }
  for (const name of TEXT_FILTERS) {
    const value = String(form.get(name) ?? '').trim();
    if (value) params.set(name, value);
  }
  for (const name of DATE_FILTERS) {
    const value = String(form.get(name) ?? '');
    const date = value ? new Date(value) : undefined;
    if (date && !Number.isNaN(date.getTime())) params.set(name, date.toISOString());
  }
  const limit = Number(form.get('limit'));
  if (limit && limit !== PAGE_SIZES[0]) params.set('limit', String(limit));
  return params;
}

const splitList = (text: string): string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** A `datetime-local` input's value (the browser's local time) for an ISO instant of the URL. */
export function localDateTime(iso: string | null): string {
  const date = iso ? new Date(iso) : undefined;
  if (!date || Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 19);
}

/** The same URL on another page. */
export function withPage(params: URLSearchParams, page: number): string {
  const next = new URLSearchParams(params);
  if (page > 0) next.set('page', String(page));
  else next.delete('page');
  return `?${next.toString()}`;
}
