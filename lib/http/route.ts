import type { RateLimitCategory, RateLimitCost } from '../rate-limits/policy.ts';
import type * as z from '../zod.ts';

// What the HTTP layer needs to know about a route. The route table (infra/routes.ts) is a list
// of these; the CDK stack, the local runtime and the OpenAPI document all read that list.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type RouteAuth = 'apiKey' | 'subscriber' | 'none';
/** The methods that honour the `idempotency-key` header (lib/http/idempotent-handler.ts). */
export type IdempotentMethod = 'POST' | 'PATCH';

export interface RouteDef {
  /** Unique; also names the Lambda function. */
  operationId: string;
  method: HttpMethod;
  /** API Gateway path syntax: `/v1/integrations/{integrationId}`. */
  path: string;
  /** Module (from the repository root) whose `handler` export serves the route. */
  handler: string;
  summary: string;
  tag: string;
  /**
   * Who may call: `apiKey` (`Authorization: ApiKey <key>`, every server-side route), `subscriber`
   * (`Authorization: Bearer <session token>`, the inbox routes a browser calls), `none` (public
   * documents, and the inbox session that hands out tokens).
   */
  auth: RouteAuth;
  /**
   * `data`: the success body goes out in the reference's envelope, `{data: body}` (a body that is
   * already a page with `data` goes out as it is): what its front-end clients read on the inbox
   * routes, and its older server SDK on the legacy v1 routes. The interface's own routes are not
   * wrapped (docs/differences.md, "Success bodies").
   */
  envelope?: 'data';
  /**
   * The query is read from the raw query string, a repeated key as a list (`tags[]=a&tags[]=b`,
   * as the inbox client sends), instead of API Gateway's values, which join repeats with commas.
   */
  repeatedQuery?: true;
  /**
   * `multipart`: the body is `multipart/form-data` (file uploads), read into its fields
   * (lib/http/multipart.ts) before the body schema validates them; `raw`: the body is left as
   * the text that came (the action gets it as `rawBody`, with the request's `url`), for routes
   * that check a sender's signature over the exact bytes (provider receipts); otherwise JSON.
   */
  bodyFormat?: 'multipart' | 'raw';
  successStatus: number;
  request: { params?: z.ZodMiniObject; query?: z.ZodMiniObject; body?: z.ZodMiniType };
  response?: z.ZodMiniType;
  /** Larger bodies get 413. */
  maxBodyBytes: number;
  /**
   * What the function may do with the table and the secrets key. Defaults by method: GET reads
   * (GetItem, Query, BatchGetItem; kms:Decrypt), every other method also writes. `none` for
   * routes that touch no stored data.
   */
  access?: 'none' | 'read' | 'write';
  /** Queues (names from infra/queues.ts) the handler sends to; only these get sqs:SendMessage. */
  sends?: readonly string[];
  /**
   * API-key routes: the environment's rate-limit bucket the request draws from (lib/rate-limits),
   * as the reference files the endpoint; `global` when not given (its default). Set for a whole
   * part of the table with `inRateLimitCategory`. Routes without an API key are not limited.
   */
  rateLimitCategory?: RateLimitCategory;
  /** `bulk`: the request takes 100 tokens (the reference's bulk endpoints); default one. */
  rateLimitCost?: RateLimitCost;
}

type Infer<T> = T extends z.ZodMiniType ? z.infer<T> : undefined;

/** The validated input of a route, typed from its schemas. */
export interface RouteInput<R extends RouteDef> {
  params: Infer<R['request']['params']>;
  query: Infer<R['request']['query']>;
  body: Infer<R['request']['body']>;
}

/** A part of the route table whose routes all draw from the rate-limit bucket of `category`. */
export function inRateLimitCategory<const T extends readonly RouteDef[]>(category: RateLimitCategory, table: T): T {
  return table.map((route) => ({ rateLimitCategory: category, ...route })) as readonly RouteDef[] as T;
}

/**
 * The lookup of a route table's entries by operation id, each typed with its own schemas (for
 * its handler to serve): `export const route = routeLookup(tenantRoutes)`.
 */
export function routeLookup<const T extends readonly RouteDef[]>(table: T) {
  return <Id extends T[number]['operationId']>(operationId: Id): Extract<T[number], { operationId: Id }> => {
    const found = table.find((r) => r.operationId === operationId);
    if (!found) throw new Error(`No route ${operationId}`);
    return found as Extract<T[number], { operationId: Id }>;
  };
}
