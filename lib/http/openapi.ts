import { DEFAULT_CATEGORY } from '../rate-limits/policy.ts';
import * as z from '../zod.ts';
import type { RouteDef } from './route.ts';

// OpenAPI 3.1 from the route table: the schemas that validate requests are the ones documented,
// so the document cannot drift from what the service accepts.

const ERROR_BODY = {
  type: 'object',
  required: ['statusCode', 'timestamp', 'path', 'message'],
  properties: {
    statusCode: { type: 'number' },
    timestamp: { type: 'string' },
    path: { type: 'string' },
    message: { type: 'string' },
    error: { type: 'string' },
    errors: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { messages: { type: 'array', items: { type: 'string' } }, value: {} },
      },
    },
    errorId: { type: 'string' },
  },
};

/** The headers of an API-key route's answers (lib/http/rate-limit.ts); Retry-After on 429 only. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': 'Requests the bucket refills in its 5-second window',
  'RateLimit-Remaining': "Tokens left in the environment's bucket of this category",
  'RateLimit-Reset': 'Seconds until the tokens this request took are back (on 429: until it would fit)',
  'RateLimit-Policy':
    '`<limit>;w=5;burst=<burst>;comment="token bucket";category="<category>";cost="<single|bulk>";serviceLevel="<level>"`',
  'Retry-After': 'Seconds to wait before sending the request again',
};
const headerRefs = (names: string[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
const LIMITED = Object.keys(RATE_LIMIT_HEADERS).filter((name) => name !== 'Retry-After');

// Several routes share a schema (a workflow is the response of seven): each is converted once.
const converted = { input: new WeakMap<z.ZodMiniType, object>(), output: new WeakMap<z.ZodMiniType, object>() };
function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): object {
  let json = converted[io].get(schema);
  if (!json) converted[io].set(schema, (json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' })));
  return json;
}

function parameters(schema: z.ZodMiniObject | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => ({
    name,
    in: location,
    required: location === 'path' || !(field as z.ZodMiniType).safeParse(undefined).success,
    schema: jsonSchema(field as z.ZodMiniType, 'input'),
  }));
}

/** The success body's schema, inside its envelope when the route has one (a page goes out as it is: handler.ts `enveloped`). */
function responseSchema(route: RouteDef): object {
  const schema = jsonSchema(route.response!, 'output');
  return route.envelope === 'data' && !isPage(route.response!)
    ? { type: 'object', properties: { data: schema }, required: ['data'] }
    : schema;
}

/** An object with `data` that is not itself a record with an id: what `enveloped` leaves unwrapped. */
function isPage(schema: z.ZodMiniType): boolean {
  if (!(schema instanceof z.ZodMiniObject)) return false;
  const fields = Object.keys(schema.shape);
  return fields.includes('data') && !fields.includes('_id') && !fields.includes('id');
}

export function buildOpenApi(routes: readonly RouteDef[], info: { title: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const errors: Record<string, unknown> = {};
    const statuses = route.auth !== 'none' ? ['400', '401', '404', '409', '413', '422', '429', '500'] : ['500'];
    const limited = route.auth === 'apiKey';
    for (const status of statuses) {
      errors[status] = {
        description: 'Error',
        ...(limited && { headers: headerRefs(status === '429' ? [...LIMITED, 'Retry-After'] : LIMITED) }),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      ...(route.auth !== 'none' && { security: [{ [route.auth === 'apiKey' ? 'ApiKey' : 'SubscriberSession']: [] }] }),
      ...(limited && {
        'x-rate-limit-category': route.rateLimitCategory ?? DEFAULT_CATEGORY,
        'x-rate-limit-cost': route.rateLimitCost ?? 'single',
      }),
      parameters: [
        ...parameters(route.request.params, 'path'),
        ...parameters(route.request.query, 'query'),
        ...(route.auth === 'apiKey'
          ? [{ name: 'idempotency-key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }]
          : []),
      ],
      ...(route.request.body && {
        requestBody: {
          required: true,
          content: {
            [route.bodyFormat === 'multipart' ? 'multipart/form-data' : 'application/json']: {
              schema: jsonSchema(route.request.body, 'input'),
            },
          },
        },
      }),
      responses: {
        [String(route.successStatus)]: {
          description: 'Success',
          ...(limited && { headers: headerRefs(LIMITED) }),
          ...(route.response && { content: { 'application/json': { schema: responseSchema(route) } } }),
        },
        ...errors,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      schemas: { Error: ERROR_BODY },
      headers: Object.fromEntries(
        Object.entries(RATE_LIMIT_HEADERS).map(([name, description]) => [
          name,
          { description, schema: { type: name === 'RateLimit-Policy' ? 'string' : 'integer' } },
        ]),
      ),
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'ApiKey <API_KEY>' },
        SubscriberSession: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The token of POST /v1/inbox/session' },
      },
    },
  };
}
