import { STATUS_CODES } from 'node:http';
import fc from 'fast-check';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from '#lib/zod.ts';
import { localDispatcher, type Dispatch, type LocalApi } from '#infra/local/api-gateway.ts';
import { routes } from '#infra/routes.ts';
import { SESSION_TTL_SECONDS, signSessionToken, verifySessionToken } from '#lib/auth/session-token.ts';
import type { RouteDef } from '#lib/http/route.ts';
import { apiClient, inboxClient, newOrganization, startTestApi, type ApiClient, type TestEnv } from '../support/api.ts';
import { buildMessage, seedMessages } from '../support/message-builder.ts';
import { propertyRuns } from '../support/property-runs.ts';
import { PROVIDERS } from '#lib/integrations/catalogue.ts';
import { NOT_FOUND_PAGE } from '#lib/http/pages.ts';

// Bad input, property-based, over every route of the route table (routes added later are walked
// too): random and malformed bodies, path ids, query strings and headers, sent with the API key of
// an organization that has real data. Every answer is a 2xx only for input that validates, else a
// 4xx with the API's one error body (a path no route serves too: the `$default` route's 404),
// never a 5xx; and a refused request changes none of the organization's data (checked on a sample
// of cases, through the list endpoints).
//
// Most cases invoke the handlers directly with the API Gateway v2 event the local gateway builds
// (the same dispatcher, without a socket); a share goes over real HTTP. A failure prints the seed
// and path; rerun one with BAD_INPUT_SEED=<seed> (and BAD_INPUT_PATH=<path>).
//
// CI runs all 10,100 cases; a developer's run a fifth unless PROPERTY_RUNS says otherwise
// (test/support/property-runs.ts: PROPERTY_RUNS=full runs them all).

const DIRECT_CASES = propertyRuns(9_000);
const HTTP_CASES = propertyRuns(1_100);
/** The least this run must have sent: 10,000 in CI. */
const LEAST_CASES = propertyRuns(10_000);
/** Snapshot the organization's data around every Nth case. */
const SNAPSHOT_EVERY = 50;

const KB = 1024;
const HUGE_STRING = 'x'.repeat(100 * KB);
const HUGE_UNICODE = '\u{1F4A5}é\u00a0'.repeat(12 * KB); // ~100 KB of UTF-8
const HUGE_ARRAY = Array.from({ length: 10_000 }, (_, i) => i);
const HUGE_STRING_ARRAY = Array.from({ length: 10_000 }, () => 'a');

function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}
const DEEP_ARRAY = nested(200, 'array');
const DEEP_OBJECT = nested(200, 'object');
/** Deeper than any recursive walk of the body could go on the call stack. */
const VERY_DEEP_TEXT = `{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;

/** Objects with own `__proto__`/`constructor`/`prototype` keys, as JSON.parse makes them. */
const PROTO_OBJECTS: unknown[] = [
  JSON.parse('{"__proto__":{"polluted":"yes","isAdmin":true}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":"yes"}}}'),
  JSON.parse('{"prototype":{"polluted":"yes"},"__proto__":null}'),
  JSON.parse('{"__proto__":[1,2,3],"constructor":"x","hasOwnProperty":1,"toString":2,"valueOf":{}}'),
];

const LONE_SURROGATES = ['\ud800', '\udfff', 'a\ud83d', '\ude00b', '\ud83d\ud83d', 'x\udbff\udc00\udc00'];
const ODD_STRINGS = [
  '',
  ' ',
  '\t\n',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  'NaN',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  '\u0000',
  '\u200b',
  '\ufeff',
  '\u202e',
  'e\u0301',
  '\u{1F600}',
  '\u{10FFFF}',
  '𝕏𝕪𝕫',
  'Ω≈ç√',
  '中文',
  'مرحبا',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '${7*7}',
  '{{7*7}}',
  '../../etc/passwd',
  'a#b',
  'a/b',
  'a%2Fb',
  'a?b=c',
  ...LONE_SURROGATES,
];

let org: { id: string; environmentIds: string[] };
let validKey: string;
/** An inbox session of sub-1 (the credential of `auth: 'subscriber'` routes), and one expired. */
let validToken: string;
let expiredToken: string;
let seeds: {
  subscriberIds: string[];
  topicKey: string;
  workflowId: string;
  workflowDbId: string;
  tenant: string;
  layout: string;
  integrationId: string;
  applicationIdentifier: string;
  messageId: string;
  /** An environment variable's key (the /v1/environment-variables/{variableKey} routes). */
  variableKey: string;
  /** A Slack integration's identifier, a connection of sub-1 through it, and a Slack channel endpoint of sub-1. */
  slackIntegration: string;
  channelConnection: string;
  channelEndpoint: string;
};

// ---- inputs ------------------------------------------------------------------------------------

const printableAscii = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

const oddString = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.array(fc.constantFrom(...LONE_SURROGATES, 'a', '\u{1F600}')).map((parts) => parts.join('')),
);

/** Values that look right: what lets a random body pass validation now and then and go deeper. */
const plausible = () =>
  fc.oneof(
    fc.constantFrom<unknown>(
      'email',
      'sms',
      'in_app',
      'push',
      'chat',
      'svc-email',
      'sendgrid',
      'fcm',
      'ASC',
      'DESC',
      'Name',
      'user-1',
      'a@b.co',
      'en-US',
      'Europe/Paris',
      'acme',
      true,
      false,
      1,
      10,
      {},
      [],
      ['a'],
      { a: 1 },
      { email: true },
      { isEnabled: true },
    ),
    fc.constantFrom<unknown>(
      ...seeds.subscriberIds,
      seeds.topicKey,
      seeds.workflowId,
      seeds.tenant,
      seeds.layout,
      seeds.integrationId,
      seeds.applicationIdentifier,
      seeds.slackIntegration,
      seeds.channelConnection,
      seeds.channelEndpoint,
      ...org.environmentIds,
    ),
  );

const wrongType = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, [], {}, [null], [[]], [{}]),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Under the 512 KB body limit, over the 400 KB a DynamoDB item holds. */
const ITEM_SIZED = { big: 'x'.repeat(450 * KB) };
const bigValue = fc.constantFrom<unknown>(HUGE_STRING, HUGE_UNICODE, HUGE_ARRAY, HUGE_STRING_ARRAY, DEEP_ARRAY, DEEP_OBJECT, ITEM_SIZED, {
  data: DEEP_OBJECT,
});

const fieldValue = () =>
  fc.oneof(
    { arbitrary: plausible(), weight: 4 },
    { arbitrary: wrongType, weight: 4 },
    { arbitrary: oddString, weight: 3 },
    { arbitrary: bigValue, weight: 1 },
    { arbitrary: fc.constantFrom(...PROTO_OBJECTS), weight: 1 },
    { arbitrary: fc.array(fc.oneof(plausible(), oddString, wrongType), { maxLength: 5 }), weight: 1 },
  );

function fieldNames(schema: z.ZodMiniType | undefined): string[] {
  return schema instanceof z.ZodMiniObject ? Object.keys(schema.shape) : [];
}

function unwrapObject(schema: z.ZodMiniType | undefined): z.ZodMiniObject | undefined {
  let current: unknown = schema;
  // Optional/nullable/default wrappers keep the object one level down.
  for (let i = 0; i < 5 && current && !(current instanceof z.ZodMiniObject); i++) {
    current = (current as { _zod: { def: { innerType?: unknown } } })._zod.def.innerType;
  }
  return current instanceof z.ZodMiniObject ? current : undefined;
}

/** Objects over the route's body fields (and a few more), each field with a random value. */
function objectBody(schema: z.ZodMiniType | undefined) {
  const names = fieldNames(schema);
  const nestedNames = names.flatMap((name) => {
    const inner = unwrapObject((schema as z.ZodMiniObject).shape[name] as z.ZodMiniType);
    return inner ? [[name, fieldNames(inner)] as const] : [];
  });
  const keys = fc.constantFrom(...names, 'unknownField', '__proto__', 'constructor', 'prototype', '');
  return fc
    .tuple(
      fc.array(fc.tuple(names.length > 0 ? fc.constantFrom(...names) : keys, fieldValue()), { maxLength: names.length + 1 }),
      fc.array(fc.tuple(keys, fieldValue()), { maxLength: 2 }),
      nestedNames.length > 0
        ? fc.option(
            fc
              .constantFrom(...nestedNames)
              .chain(([name, inner]) =>
                fc.tuple(
                  fc.constant(name),
                  fc.dictionary(inner.length > 0 ? fc.constantFrom(...inner) : fc.string(), fieldValue(), { maxKeys: 3 }),
                ),
              ),
          )
        : fc.constant(null),
      fc.boolean(),
    )
    .map(([fields, extra, inner, protoBase]) => {
      // Own `__proto__` keys only exist on objects JSON.parse made; assignment would set the prototype.
      const body = (protoBase ? JSON.parse('{"__proto__":{"polluted":"yes"}}') : {}) as Record<string, unknown>;
      for (const [name, value] of [...fields, ...extra])
        Object.defineProperty(body, name, { value, enumerable: true, writable: true, configurable: true });
      if (inner) body[inner[0]] = inner[1];
      return body;
    });
}

const INVALID_JSON = [
  '{',
  '}',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '[1,2,',
  'NaN',
  'Infinity',
  'undefined',
  'nul',
  'tru',
  '{"a":1}{"b":2}',
  '<xml/>',
  'a=1&b=2',
  '{"a":"\\x"}',
  '{"a":"\u0001"}',
  '\u0000',
  '{"__proto__":',
  '"unterminated',
  '{"a":01}',
  '--',
  '[,]',
];

interface BodyCase {
  /** The text sent; undefined sends no body. */
  text: string | undefined;
  contentType: string | undefined;
}

const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'multipart/form-data; boundary=x',
  'application/xml',
  'image/png',
  '',
  'garbage',
  'application/json; charset=utf-16',
);

function bodyText(schema: z.ZodMiniType | undefined): fc.Arbitrary<string | undefined> {
  const json = (value: fc.Arbitrary<unknown>) => value.map((v) => JSON.stringify(v));
  return fc.oneof(
    { arbitrary: json(objectBody(schema)), weight: 8 },
    { arbitrary: json(fc.oneof(wrongType, oddString, bigValue, fc.constantFrom(...PROTO_OBJECTS))), weight: 2 },
    { arbitrary: fc.constantFrom(...INVALID_JSON, VERY_DEEP_TEXT, `[${VERY_DEEP_TEXT}]`), weight: 1 },
    { arbitrary: json(objectBody(schema)).chain((t) => fc.nat(t.length - 1).map((n) => t.slice(0, n))), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary' }), weight: 1 },
    { arbitrary: fc.constantFrom(undefined, '', 'null', '""', '[]', '0', '{}', ' '), weight: 2 },
  );
}

const bodyCase = (route: RouteDef): fc.Arbitrary<BodyCase> =>
  fc.record({
    text: bodyText(route.request.body),
    contentType: fc.oneof({ arbitrary: fc.constant('application/json'), weight: 3 }, { arbitrary: contentType, weight: 2 }),
  });

/** Percent-encodes every byte of the UTF-8 text but unreserved ASCII (lone surrogates become U+FFFD). */
function encode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_~-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A path segment, ready to put in the URL. */
function pathId(method: string, huge: boolean): fc.Arbitrary<string> {
  const realIds = [
    ...seeds.subscriberIds,
    seeds.topicKey,
    seeds.workflowId,
    seeds.workflowDbId,
    seeds.tenant,
    seeds.layout,
    seeds.integrationId,
    seeds.messageId,
    seeds.channelConnection,
    seeds.channelEndpoint,
    // An action type, so the subscriber notification action routes get past their path.
    'primary',
    // The environments (/v1/environments/{environmentId}, /v2/environments/{id}/…) and a variable.
    ...org.environmentIds,
    seeds.applicationIdentifier,
    seeds.variableKey,
  ];
  const arbitraries = [
    fc.constantFrom(...ODD_STRINGS.filter((s) => s !== ''), '#', '/', '?', '%2F', '.', '..', '%', '+', ' x ').map(encode),
    fc.string({ unit: 'grapheme', minLength: 1 }).map(encode),
    fc.string({ unit: 'binary', minLength: 1 }).map(encode),
    printableAscii(40)
      .filter((s) => s.length > 0)
      .map(encode),
    fc
      .constantFrom(
        'x'.repeat(huge ? 100 * KB : 2 * KB),
        'é'.repeat(huge ? 20 * KB : 300),
        'a'.repeat(256),
        'a'.repeat(257),
        'a'.repeat(2049),
        '\u0800'.repeat(256),
        '\u{1F600}'.repeat(128),
      )
      .map(encode),
    // Sent as is: malformed or unusual escapes, and segments that are empty or not segments.
    fc.constantFrom(
      '%zz',
      '%',
      '%E0%A4%A',
      '%ED%A0%80',
      '%C0%AF',
      '%FF',
      '%00',
      '%2F',
      '%23',
      '%3F',
      '%20',
      '',
      '.',
      '..',
      '%2E%2E',
      ';x=1',
    ),
  ];
  // DELETE with a real id would delete the data the other cases need.
  if (method !== 'DELETE') arbitraries.push(fc.constantFrom(...realIds).map(encode));
  return fc.oneof(...arbitraries);
}

function queryString(route: RouteDef, huge: boolean): fc.Arbitrary<string> {
  const names = fieldNames(route.request.query);
  const key = fc.oneof(
    { arbitrary: names.length > 0 ? fc.constantFrom(...names) : fc.constant('limit'), weight: 4 },
    { arbitrary: fc.constantFrom('unknown', '__proto__', 'constructor', 'toString', '', 'limit[]', 'a[b]', 'LIMIT'), weight: 1 },
    { arbitrary: oddString, weight: 1 },
  );
  const value = fc.oneof(
    fc.constantFrom(
      '',
      '0',
      '-1',
      '1',
      '10',
      '100',
      '101',
      '1.5',
      '1e309',
      'NaN',
      'true',
      'false',
      'yes',
      'ASC',
      'DESC',
      'asc',
      'createdAt',
      '_id',
      'null',
      '[]',
      '{}',
      '[object Object]',
    ),
    oddString,
    fc.constantFrom(...seeds.subscriberIds, seeds.topicKey),
    // Over HTTP the request line and headers must stay under Node's 16 KB (API Gateway's is
    // smaller still): a longer one gets the server's bare 431 before any function runs.
    fc.constantFrom(huge ? HUGE_STRING : 'x'.repeat(1000), 'é'.repeat(huge ? 20 * KB : 150)),
  );
  const pair = fc.oneof(
    { arbitrary: fc.tuple(key, value).map(([k, v]) => `${encode(k)}=${encode(v)}`), weight: 8 },
    { arbitrary: key.map((k) => encode(k)), weight: 1 }, // no `=`
    { arbitrary: fc.constantFrom('=', '&', '%zz=%', 'a=%E0%A4%A', '==', 'a=b=c', '%00=%00', '+=+'), weight: 1 },
  );
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.join('&'));
}

interface AuthCase {
  header: string | undefined;
  valid: boolean;
}

/** The credentials a route takes: an API key, or an inbox session's token (`auth: 'subscriber'`). */
const authCase = (route: RouteDef): fc.Arbitrary<AuthCase> => (route.auth === 'subscriber' ? sessionAuthCase() : apiKeyAuthCase());

const sessionAuthCase = (): fc.Arbitrary<AuthCase> =>
  fc.oneof(
    fc.constant({ header: `Bearer ${validToken}`, valid: true }),
    fc.constantFrom<AuthCase>(
      { header: undefined, valid: false },
      { header: 'Bearer', valid: false },
      { header: 'Bearer ', valid: false },
      { header: `ApiKey ${validKey}`, valid: false },
      { header: `bearer ${validToken}`, valid: false },
      { header: `Bearer ${validToken}x`, valid: false },
      { header: `Bearer ${validToken.slice(0, -2)}`, valid: false },
      // The token's claims with another signature, and with none (alg "none").
      { header: `Bearer ${validToken.split('.').slice(0, 2).join('.')}.${'A'.repeat(43)}`, valid: false },
      { header: `Bearer eyJhbGciOiJub25lIn0.${validToken.split('.')[1]}.`, valid: false },
      { header: `Bearer ${'k'.repeat(2000)}`, valid: false },
      { header: `Bearer ${expiredToken}`, valid: false },
    ),
    printableAscii(80).map((header) => ({ header, valid: false })),
  );

const apiKeyAuthCase = (): fc.Arbitrary<AuthCase> =>
  fc.oneof(
    fc.constant({ header: `ApiKey ${validKey}`, valid: true }),
    fc.constantFrom<AuthCase>(
      { header: undefined, valid: false },
      { header: '', valid: false },
      { header: 'ApiKey', valid: false },
      { header: 'ApiKey ', valid: false },
      { header: `Bearer ${validKey}`, valid: false },
      { header: `apikey ${validKey}`, valid: false },
      { header: `ApiKey ${validKey}x`, valid: false },
      { header: `ApiKey ${validKey.slice(1)}`, valid: false },
      { header: 'ApiKey null', valid: false },
      { header: `ApiKey ${'k'.repeat(2000)}`, valid: false },
    ),
    printableAscii(80).map((header) => ({ header, valid: false })),
  );

const idempotencyKey = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 2 },
  { arbitrary: printableAscii(300), weight: 3 },
  { arbitrary: fc.constantFrom('', ' ', 'a', 'k'.repeat(255), 'k'.repeat(256), 'k'.repeat(1000), '__proto__', 'constructor'), weight: 1 },
);

interface Case {
  route: RouteDef;
  method: string;
  url: string;
  headers: Record<string, string>;
  auth: AuthCase;
  body: BodyCase;
}

function caseFor(route: RouteDef, huge: boolean, anyRoute = false): fc.Arbitrary<Case> {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  // A few cases send another method to the path: the gateway's 404, or another route.
  const methods = anyRoute ? fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') : fc.constant(route.method);
  return methods
    .chain((method) =>
      fc.record({
        method: fc.constant(method),
        // Chosen after the method: a DELETE sent to another route's path must not get a real id either.
        ids: fc.tuple(...names.map(() => pathId(method, huge))),
        query: fc.option(queryString(route, huge), { freq: 2 }),
        auth: authCase(route),
        body: bodyCase(route),
        idempotencyKey,
        extraHeaders: fc.dictionary(
          fc.constantFrom('x-forwarded-for', 'accept', 'x-amz-date', 'user-agent', 'x-unknown'),
          printableAscii(50),
          { maxKeys: 2 },
        ),
      }),
    )
    .map(({ ids, query, auth, body, idempotencyKey: key, extraHeaders, method }) => {
      let i = 0;
      const path = route.path.replace(/\{\w+\}/g, () => ids[i++]!);
      const headers: Record<string, string> = { ...extraHeaders };
      if (auth.header !== undefined) headers.authorization = auth.header;
      if (body.contentType !== undefined) headers['content-type'] = body.contentType;
      if (key !== undefined && (method === 'POST' || method === 'PATCH' || key.length % 7 === 0)) headers['idempotency-key'] = key;
      const c: Case = { route, method, url: query === null ? path : `${path}?${query}`, headers, auth, body };
      // What fast-check prints for a counterexample: the request, not the route's schemas.
      return Object.assign(c, { [fc.toStringMethod]: () => describeCase(c) });
    });
}

// ---- sending and checking -------------------------------------------------------------------------

interface Answer {
  status: number;
  body: unknown;
  text: string | undefined;
  /** A stored answer replayed for an idempotency key: it may be another request's. */
  replay: boolean;
}

let dispatch: Dispatch;
let api: LocalApi;
let http: ApiClient;

async function sendDirect(c: Case): Promise<Answer> {
  const result: APIGatewayProxyStructuredResultV2 = await dispatch({
    method: c.method,
    url: c.url,
    headers: c.headers,
    body: Buffer.from(c.body.text ?? '', 'utf8'),
  });
  const replay = String(result.headers?.['Idempotency-Replay'] ?? '') === 'true';
  return answer(result.statusCode ?? 200, result.body, replay);
}

async function sendHttp(c: Case): Promise<Answer> {
  const res = await http.request(c.method, c.url, {
    headers: c.headers,
    ...(c.body.text !== undefined && c.method !== 'GET' && { rawBody: c.body.text }),
  });
  return {
    status: res.status,
    body: res.body,
    text: typeof res.body === 'string' ? res.body : JSON.stringify(res.body),
    replay: res.headers.get('idempotency-replay') === 'true',
  };
}

function answer(status: number, text: string | undefined, replay: boolean): Answer {
  let body: unknown = text;
  try {
    body = text === undefined || text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: the check below reports it
  }
  return { status, body, text, replay };
}

function describeCase(c: Case): string {
  const cut = (s: string | undefined) => (s === undefined ? 'none' : s.length > 300 ? `${s.slice(0, 300)}... (${s.length} chars)` : s);
  return [
    `${c.method} ${cut(c.url)} (route ${c.route.operationId})`,
    `headers: ${cut(JSON.stringify(c.headers))}`,
    `body: ${cut(c.body.text === undefined ? undefined : JSON.stringify(c.body.text))}`,
  ].join('\n');
}

/** The body a handler validates: the gateway sends no body for an empty one, and `null` is absent. */
function sentBody(text: string | undefined): { ok: true; value: unknown } | { ok: false } {
  if (!text) return { ok: true, value: {} };
  try {
    return { ok: true, value: (JSON.parse(text) as unknown) ?? {} };
  } catch {
    return { ok: false };
  }
}

const PAGE_ROUTES: readonly string[] = ['followTrackedLink'];

function check(c: Case, a: Answer, direct: boolean) {
  const fail = (why: string) => {
    throw new Error(`${why}\nstatus ${a.status}, answer: ${a.text?.slice(0, 500)}\n${describeCase(c)}`);
  };
  if (a.status >= 500) fail('a 5xx for bad input');
  if (a.status < 200 || a.status >= 500) fail('an unexpected status');

  if (a.status < 300) {
    // Success only for input the route accepts.
    if (c.method !== c.route.method) return; // another route of the same path served it
    if (c.route.auth !== 'none' && !c.auth.valid) fail('a 2xx without valid credentials');
    if (c.route.request.body) {
      const sent = sentBody(c.body.text);
      if (!sent.ok) fail('a 2xx for a body that is not JSON');
      if (sent.ok && !c.route.request.body.safeParse(sent.value).success) fail('a 2xx for a body its schema refuses');
    }
    return;
  }

  // The tracking routes a mail client or browser follows (docs/engagement.md) answer a token
  // that does not open with a plain page, not the API's error body.
  if (PAGE_ROUTES.includes(c.route.operationId) && a.status === 404 && a.text === NOT_FOUND_PAGE) return;
  if (typeof a.body !== 'object' || a.body === null) fail('a 4xx whose body is not a JSON object');
  const body = a.body as Record<string, unknown>;
  if (body.statusCode !== a.status) fail('statusCode differs from the HTTP status');
  if (typeof body.timestamp !== 'string' || Number.isNaN(Date.parse(body.timestamp))) fail('no valid timestamp');
  if (typeof body.message !== 'string' || body.message === '') fail('no message');
  if (body.error !== STATUS_CODES[a.status]) fail('error is not the reason phrase');
  if (typeof body.path !== 'string') fail('no path');
  // A replay is the stored answer of the first request with that key (scope: organization + key).
  if (direct && !a.replay) {
    const url = new URL(c.url, 'http://localhost');
    const expected = url.search.length > 1 ? `${url.pathname}${url.search}` : url.pathname;
    if (body.path !== expected) fail(`path is not the request path with its query string (${expected})`);
  }
  if (body.message === 'Validation Error') {
    if (a.status !== 422) fail('a validation error that is not a 422');
    const errors = body.errors as Record<string, { messages?: unknown }> | undefined;
    if (typeof errors !== 'object' || errors === null || Object.keys(errors).length === 0) fail('a validation error without errors');
    for (const entry of Object.values(errors!)) {
      if (!Array.isArray(entry.messages) || entry.messages.length === 0 || !('value' in entry))
        fail('an errors entry without messages and value');
    }
  }
}

// ---- the organization's data ----------------------------------------------------------------------

const READS = [
  '/v1/integrations',
  '/v2/subscribers?limit=100',
  '/v2/topics?limit=100',
  '/v2/workflows?limit=100',
  '/v2/tenants?limit=100',
  '/v2/contexts?limit=100',
  '/v2/layouts?limit=100',
  // What the inbox session's subscriber may change (the inbox preferences routes).
  '/v2/subscribers/sub-1/preferences?criticality=all',
];

async function snapshot(): Promise<string[]> {
  const authorization = `ApiKey ${validKey}`;
  return Promise.all(
    READS.map(async (url) => {
      const result = await dispatch({ method: 'GET', url, headers: { authorization }, body: Buffer.alloc(0) });
      expect(result.statusCode, `${url}: ${result.body}`).toBe(200);
      return result.body ?? '';
    }),
  );
}

let cases = 0;
let snapshots = 0;

async function runCase(c: Case, direct: boolean) {
  const n = cases++;
  const before = n % SNAPSHOT_EVERY === 0 ? await snapshot() : undefined;
  const a = direct ? await sendDirect(c) : await sendHttp(c);
  check(c, a, direct);
  if (before && a.status >= 400) {
    snapshots++;
    const after = await snapshot();
    for (const [i, url] of READS.entries()) {
      if (after[i] !== before[i]) throw new Error(`a refused request (${a.status}) changed ${url}\n${describeCase(c)}`);
    }
  }
}

function params(numRuns: number): fc.Parameters<unknown> {
  const seed = process.env.BAD_INPUT_SEED;
  const path = process.env.BAD_INPUT_PATH;
  return {
    numRuns,
    endOnFailure: true,
    verbose: false,
    ...(seed !== undefined && { seed: Number(seed) }),
    ...(path !== undefined && { path }),
  };
}

// ---- setup -------------------------------------------------------------------------------------------

beforeAll(async () => {
  api = await startTestApi();
  dispatch = localDispatcher(routes);
  http = apiClient(api.url);
  const provisioned = await newOrganization();
  const environments = provisioned.environments.map((e) => ({ id: e.environment._id, apiKey: e.apiKey }));
  validKey = environments[0]!.apiKey;
  org = { id: provisioned.organization._id, environmentIds: environments.map((e) => e.id) };
  const client = apiClient(api.url, validKey);
  const created = async (res: Promise<{ status: number; body: any }>) => {
    const r = await res;
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };
  const subscriberIds = ['sub-1', 'sub-2', 'ann@example.com'];
  for (const subscriberId of subscriberIds) {
    await created(client.post('/v2/subscribers', { subscriberId, firstName: 'Ann', email: 'ann@example.com', data: { plan: 'pro' } }));
  }
  await created(client.post('/v2/topics', { key: 'news', name: 'News' }));
  await created(client.post('/v2/topics/news/subscriptions', { subscriberIds: ['sub-1', 'sub-2'] }));
  const workflow = await created(
    client.post('/v2/workflows', {
      name: 'Welcome',
      workflowId: 'welcome',
      steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hello {{subscriber.firstName}}' } }],
    }),
  );
  await created(client.post('/v2/tenants', { identifier: 'acme', name: 'Acme', data: { seats: 5 } }));
  // A context named by real path ids (`/v2/contexts/acme/acme`), so its routes go past the lookup too.
  await created(client.post('/v2/contexts', { type: 'acme', id: 'acme', data: { seats: 5 } }));
  await created(
    client.post('/v2/layouts', {
      layoutId: 'brand',
      name: 'Brand',
      controlValues: { email: { editorType: 'html', body: '<html><body>{{content}}</body></html>' } },
    }),
  );
  // The reference's envelope: `{data: integration}`.
  const { data: integration } = await created(client.post('/v1/integrations', { providerId: 'svc-email', channel: 'email', name: 'Mail' }));
  await created(
    client.post('/v1/environment-variables', {
      key: 'BASE_URL',
      values: [{ _environmentId: org.environmentIds[0]!, value: 'https://example.com' }],
    }),
  );
  const slack = { applicationId: 'A1', clientId: 'client-1', secretKey: 'secret-1', redirectUrl: 'https://app.example/connected' };
  await created(
    client.post('/v1/integrations', { providerId: 'slack', channel: 'chat', identifier: 'slack-app', active: true, credentials: slack }),
  );
  await created(
    client.post('/v1/channel-connections', {
      identifier: 'conn-1',
      subscriberId: 'sub-1',
      integrationIdentifier: 'slack-app',
      workspace: { id: 'T1' },
      auth: { accessToken: 'xoxb-1' },
    }),
  );
  await created(
    client.post('/v1/channel-endpoints', {
      identifier: 'ep-1',
      subscriberId: 'sub-1',
      integrationIdentifier: 'slack-app',
      type: 'slack_channel',
      endpoint: { channelId: 'C1' },
    }),
  );
  const applicationIdentifier = provisioned.environments[0]!.environment.identifier;
  validToken = (await inboxClient(api.url, { applicationIdentifier } as TestEnv, 'sub-1')).token;
  const session = (await verifySessionToken(validToken))!;
  expiredToken = await signSessionToken(session, new Date(Date.now() - (SESSION_TTL_SECONDS + 60) * 1000));
  // With an action, so the action routes (inbox complete/revert, the legacy actions) can succeed too.
  const cta = { action: { buttons: [{ type: 'primary' as const, content: 'Go' }] } };
  const [message] = await seedMessages([
    buildMessage({ organizationId: org.id, environmentId: org.environmentIds[0]! }, { subscriberId: 'sub-1', _id: 'x' }, { cta }),
  ]);
  seeds = {
    subscriberIds,
    topicKey: 'news',
    workflowId: 'welcome',
    workflowDbId: workflow._id,
    tenant: 'acme',
    layout: 'brand',
    integrationId: integration._id,
    applicationIdentifier,
    messageId: message!._id,
    variableKey: 'BASE_URL',
    slackIntegration: 'slack-app',
    channelConnection: 'conn-1',
    channelEndpoint: 'ep-1',
  };
});

afterAll(() => api?.close());

// ---- properties ------------------------------------------------------------------------------------

describe('bad input never gets a 5xx, gets the error body, and writes nothing', () => {
  const perRoute = Math.ceil(DIRECT_CASES / routes.length);

  describe.each(routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
    it(`answers ${perRoute} random requests (handlers invoked directly)`, async () => {
      await fc.assert(
        fc.asyncProperty(caseFor(route, true), (c) => runCase(c, true)),
        params(perRoute),
      );
    });
  });

  it(`answers ${HTTP_CASES} random requests over HTTP, to any route and method`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes).chain((route) => caseFor(route, false, true)),
        (c) => runCase(c, false),
      ),
      params(HTTP_CASES),
    );
  });

  it('stores free-form data that holds a `constructor` key (found by this test: a 500)', async () => {
    const client = apiClient(api.url, validKey);
    const data = { constructor: { prototype: { polluted: 'yes' } }, plain: 1 };
    // A tenant of its own: the random cases may have moved the seeded one (PATCH /v1/tenants takes a new identifier).
    expect((await client.post('/v2/tenants', { identifier: 'ctor-tenant', name: 'Ctor' })).status).toBe(201);
    const patched = await client.patch('/v2/tenants/ctor-tenant', { data, constructor: 'sub-2' });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect((await client.get('/v2/tenants/ctor-tenant')).body.data).toEqual(data);
    const subscriber = await client.post('/v2/subscribers', { subscriberId: 'ctor', data: { constructor: 'x' } });
    expect(subscriber.status, JSON.stringify(subscriber.body)).toBe(201);
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
  });

  it(`ran at least ${LEAST_CASES} cases, some of them with a snapshot of the data`, () => {
    expect(cases).toBeGreaterThanOrEqual(LEAST_CASES);
    expect(snapshots).toBeGreaterThan(0);
  });
});

describe('every provider of the catalogue, activated with malformed credentials', () => {
  // Each credential the catalogue lists for the provider is given a value no field takes (an
  // object): the activation is refused with the fields named, and nothing is stored.
  const withCredentials = PROVIDERS.filter((p) => p.credentials.length > 0);

  it.each(withCredentials.map((p) => ({ providerId: p.id, channel: p.channel, keys: p.credentials.map((c) => c.key) })))(
    '$providerId ($channel): 422 naming its credentials',
    async ({ providerId, channel, keys }) => {
      const client = apiClient(api.url, validKey);
      const credentials = Object.fromEntries(keys.map((key) => [key, { malformed: true }]));
      const res = await client.post('/v1/integrations', { providerId, channel, active: true, credentials });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(
        Object.keys(res.body.errors ?? {}).some((field) => field.startsWith('credentials.')),
        JSON.stringify(res.body),
      ).toBe(true);
    },
  );

  it('stored none of them', async () => {
    const client = apiClient(api.url, validKey);
    const listed = (await client.get('/v1/integrations')).body as { providerId: string; credentials: Record<string, unknown> }[];
    expect(listed.filter((i) => Object.values(i.credentials ?? {}).some((v) => typeof v === 'object' && v !== null))).toEqual([]);
  });
});
