import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { Caller } from '../auth/caller.ts';
import type { SubscriberSession } from '../auth/session-token.ts';
import { BadRequestError, PayloadTooLargeError } from '../errors.ts';
import { logger } from '../logger.ts';
import { flushMetrics } from '../observability/metrics.ts';
import { parseMultipart } from './multipart.ts';
import { errorResponse, type HttpResponse } from './responses.ts';
import type { RouteDef } from './route.ts';
import { assertStorableBody, parseOrThrow } from './validation.ts';

// The middy middlewares every handler shares, in the order they run. Each one does one job and
// leaves its result on the event for the next.

export interface HttpEvent extends APIGatewayProxyEventV2 {
  caller?: Caller;
  session?: SubscriberSession;
  input?: { params: unknown; query: unknown; body: unknown };
  /** Headers every answer to the request carries, whatever it is (the rate-limit headers). */
  responseHeaders?: Record<string, string>;
}

export type Middleware = MiddlewareObj<HttpEvent, HttpResponse>;

/**
 * Outermost: one log line per request, the metrics it recorded written, every thrown error turned
 * into its error body, and the headers left for every answer (`responseHeaders`) put on it.
 */
export function responses(): Middleware {
  return {
    before: (request) => {
      (request.internal as Record<string, number>).startedAt = Date.now();
    },
    after: (request) => {
      // A replayed idempotent answer is the stored one: its headers are rebuilt, not mutated.
      const { responseHeaders } = request.event;
      if (request.response && responseHeaders) request.response.headers = { ...request.response.headers, ...responseHeaders };
      logRequest(request.event, request.response?.statusCode, request.internal);
      flushMetrics();
    },
    onError: (request) => {
      request.response = errorResponse(request.error, request.event);
      Object.assign(request.response.headers, request.event.responseHeaders);
      logRequest(request.event, request.response.statusCode, request.internal);
      flushMetrics();
    },
  };
}

function logRequest(event: HttpEvent, status: number | undefined, internal: Record<string, unknown>) {
  logger.info('request', {
    method: event.requestContext.http.method,
    path: event.rawPath,
    status,
    durationMs: Date.now() - ((internal.startedAt as number) ?? Date.now()),
    organizationId: event.caller?.organizationId,
    environmentId: event.caller?.environmentId,
  });
}

export function bodyLimit(maxBytes: number): Middleware {
  return {
    before: ({ event }) => {
      if (!event.body) return;
      const bytes = event.isBase64Encoded ? Buffer.from(event.body, 'base64').length : Buffer.byteLength(event.body);
      if (bytes > maxBytes) throw new PayloadTooLargeError(maxBytes);
    },
  };
}

/** Parses a JSON body whatever its content type claims; a body that is not JSON is a 400. */
export function jsonBody(): Middleware {
  // `disableContentTypeCheck` exists in the middleware but not yet in its published types.
  const options = { disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0];
  const parser = httpJsonBodyParser(options) as Middleware;
  return {
    before: async (request) => {
      if (!request.event.body) return;
      try {
        await parser.before?.(request);
      } catch {
        throw new BadRequestError('Invalid or malformed JSON was provided');
      }
    },
  };
}

/** Reads a `multipart/form-data` body into its fields (multipart.ts): the upload routes. */
export function multipartBody(): Middleware {
  return {
    before: async ({ event }) => {
      const contentType = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
      (event as { body: unknown }).body = await parseMultipart(event.body, event.isBase64Encoded, contentType);
    },
  };
}

/** Leaves the body as the text that came (decoded from base64 if API Gateway encoded it). */
export function rawBody(): Middleware {
  return {
    before: ({ event }) => {
      if (event.body && event.isBase64Encoded) {
        event.body = Buffer.from(event.body, 'base64').toString('utf8');
        event.isBase64Encoded = false;
      }
    },
  };
}

/** The URL the caller used (what senders that sign the URL, such as Twilio, signed). */
export function requestUrl(event: HttpEvent): string {
  const proto = event.headers?.['x-forwarded-proto'] ?? 'http';
  const host = event.headers?.host ?? event.requestContext.domainName;
  return `${proto}://${host}${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
}

export function validate(route: RouteDef): Middleware {
  const { params, query, body } = route.request;
  return {
    before: ({ event }) => {
      if (body) assertStorableBody(event.body);
      event.input = {
        params: params ? parseOrThrow(params, event.pathParameters ?? {}, 'params') : undefined,
        query: query
          ? parseOrThrow(query, route.repeatedQuery ? repeatedQuery(event.rawQueryString) : (event.queryStringParameters ?? {}), 'query')
          : undefined,
        body: body ? parseOrThrow(body, event.body ?? {}, 'body') : undefined,
      };
    },
  };
}

/** The query string with each repeated key as a list of its values, in order. */
function repeatedQuery(raw: string | undefined): Record<string, string | string[]> {
  const values = new Map<string, string[]>();
  for (const [key, value] of new URLSearchParams(raw ?? '')) values.set(key, [...(values.get(key) ?? []), value]);
  // fromEntries defines own properties: a `__proto__` key stays a plain key.
  return Object.fromEntries([...values].map(([key, list]) => [key, list.length === 1 ? list[0]! : list]));
}
