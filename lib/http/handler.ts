import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context } from 'aws-lambda';
import type { Caller } from '../auth/caller.ts';
import { AppError } from '../errors.ts';
import { logger } from '../logger.ts';
import { IDEMPOTENT_METHODS, runIdempotently } from './idempotency.ts';
import { authenticate, bodyLimit, jsonBody, responses, validate, type HttpEvent } from './middleware.ts';
import { errorResponse, jsonResponse, type HttpResponse } from './responses.ts';
import type { RouteDef, RouteInput } from './route.ts';

// Builds the Lambda handler of one route: the shared middleware chain around an action that
// takes validated input and returns the success body. Handlers in functions/ are one call to this.

export interface ActionRequest<R extends RouteDef> extends RouteInput<R> {
  /** The API key's environment and organization; absent only on routes without auth. */
  caller: R['auth'] extends true ? Caller : Caller | undefined;
  headers: Record<string, string | undefined>;
}

export function httpHandler<R extends RouteDef>(route: R, action: (request: ActionRequest<R>) => Promise<unknown>) {
  const base = middy<HttpEvent, HttpResponse, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(responses())
    .use(bodyLimit(route.maxBodyBytes))
    .use(jsonBody());
  if (route.auth) base.use(authenticate());

  return base.use(validate(route)).handler(async (event, context) => {
    const request = {
      ...(event.input as RouteInput<R>),
      caller: event.caller,
      headers: event.headers ?? {},
    } as ActionRequest<R>;
    // Answers the domain refuses (4xx) become responses here, inside the idempotent part, so a
    // repeat of the request replays them; faults propagate and release the idempotency key.
    const run = async () => {
      try {
        return jsonResponse(route.successStatus, await action(request));
      } catch (error) {
        if (error instanceof AppError && error.status < 500) return errorResponse(error, event);
        throw error;
      }
    };

    const idempotencyKey = event.headers?.['idempotency-key'];
    if (idempotencyKey === undefined || !event.caller || !IDEMPOTENT_METHODS.has(route.method)) return run();
    return runIdempotently(
      { organizationId: event.caller.organizationId, key: idempotencyKey, body: event.input?.body ?? null },
      context,
      run,
    );
  });
}
