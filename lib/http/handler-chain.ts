import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context } from 'aws-lambda';
import type { Caller } from '../auth/caller.ts';
import { AppError } from '../errors.ts';
import { logger } from '../logger.ts';
import type { SubscriberSession } from '../auth/session-token.ts';
import {
  bodyLimit,
  jsonBody,
  multipartBody,
  rawBody,
  requestUrl,
  responses,
  validate,
  type HttpEvent,
  type Middleware,
} from './middleware.ts';
import { errorResponse, jsonResponse, type HttpResponse } from './responses.ts';
import type { RouteDef, RouteInput } from './route.ts';

// The Lambda handler of one route: the shared middleware chain around an action that takes
// validated input and returns the success body. Handlers in functions/ build it through
// httpHandler (handler.ts), which puts the caller's authentication in the chain, through
// idempotentHttpHandler (idempotent-handler.ts), which adds the `idempotency-key` header, or,
// for a route without auth, through publicHttpHandler (public-handler.ts). Each split keeps what
// a route never runs out of its bundle: Powertools idempotency, and the API-key, session-token
// and rate-limit code (jose, the key and bucket reads) out of the public routes'.

export interface ActionRequest<R extends RouteDef> extends RouteInput<R> {
  /** The API key's environment and organization (routes with `auth: 'apiKey'`). */
  caller: R['auth'] extends 'apiKey' ? Caller : undefined;
  /** The subscriber whose session token came with the request (routes with `auth: 'subscriber'`). */
  session: R['auth'] extends 'subscriber' ? SubscriberSession : undefined;
  headers: Record<string, string | undefined>;
  /** Routes with `bodyFormat: 'raw'`: the body as sent (UTF-8), and the URL the sender called. */
  rawBody: R['bodyFormat'] extends 'raw' ? string : undefined;
  url: R['bodyFormat'] extends 'raw' ? string : undefined;
}

export type Action<R extends RouteDef> = (request: ActionRequest<R>) => Promise<unknown>;

/** A success body an action sends with headers of its own (withWarning). */
class BodyWithHeaders {
  constructor(
    readonly body: unknown,
    readonly headers: Record<string, string>,
  ) {}
}

/** The body with response headers of the action's own (a redirect's `location`). */
export function withHeaders(body: unknown, headers: Record<string, string>): unknown {
  return new BodyWithHeaders(body, headers);
}

/** A whole response an action makes itself (a redirect, a page, an image: lib/http/pages.ts), sent as it is. */
export class PreparedResponse {
  constructor(readonly response: HttpResponse) {}
}

/**
 * The body, with a `Warning: 299` header (a persistent warning) when the request did something
 * less than it asked that is not an error: `check: true` for a provider that cannot be checked.
 */
export function withWarning(body: unknown, warning: string | undefined): unknown {
  return warning ? new BodyWithHeaders(body, { warning: `299 - "${warning.replace(/["\\]/g, '\\$&')}"` }) : body;
}

/** Runs the action's part of a request, possibly around it (the idempotency key). */
export type Around = (event: HttpEvent, context: Context, run: () => Promise<HttpResponse>) => Promise<HttpResponse>;

/**
 * The route's chain: `guards` (who calls, what they may spend) run after the body is read and
 * before it is validated; `around` wraps the action.
 */
export function buildHandler<R extends RouteDef>(
  route: R,
  action: Action<R>,
  guards: Middleware[],
  around: Around = (_event, _context, run) => run(),
) {
  const base = middy<HttpEvent, HttpResponse, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(responses())
    .use(bodyLimit(route.maxBodyBytes))
    .use(route.bodyFormat === 'multipart' ? multipartBody() : route.bodyFormat === 'raw' ? rawBody() : jsonBody());
  for (const guard of guards) base.use(guard);

  const handler = base.use(validate(route)).handler(async (event, context) => {
    const request = {
      ...(event.input as RouteInput<R>),
      caller: event.caller,
      session: event.session,
      headers: event.headers ?? {},
      ...(route.bodyFormat === 'raw' && { rawBody: event.body ?? '', url: requestUrl(event) }),
    } as ActionRequest<R>;
    // Answers the domain refuses (4xx) become responses here, inside `around`, so a repeat of
    // an idempotent request replays them; faults propagate and release the idempotency key.
    return around(event, context, async () => {
      try {
        const result = await action(request);
        if (result instanceof PreparedResponse) return result.response;
        const withHeaders = result instanceof BodyWithHeaders;
        const body = withHeaders ? result.body : result;
        const response = jsonResponse(route.successStatus, route.envelope === 'data' ? enveloped(body) : body);
        if (withHeaders) Object.assign(response.headers, result.headers);
        return response;
      } catch (error) {
        if (error instanceof AppError && error.status < 500) return errorResponse(error, event);
        throw error;
      }
    });
  });
  // Which entry of the route table this handler serves: test/unit/handler-wiring.test.ts checks
  // it against the entry that names the handler's file.
  return Object.assign(handler, { operationId: route.operationId });
}

/**
 * The reference's envelope: `{data: body}`, except a body that is already a page (it has `data`
 * and is not itself a record with an id), which goes out as it is.
 */
export function enveloped(body: unknown): unknown {
  if (body === undefined) return undefined;
  const isPage = body !== null && typeof body === 'object' && !Array.isArray(body) && 'data' in body && !('_id' in body) && !('id' in body);
  return isPage ? body : { data: body };
}
