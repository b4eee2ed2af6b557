import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ENV, optional } from '#lib/config.ts';
import type { RouteDef } from '#lib/http/route.ts';
import { corsHeaders, parseAllowedOrigins, preflightHeaders } from '../cors.ts';
import { consoleRoute } from '../routes/console.ts';
import { fallbackRoute } from '../routes/fallback.ts';
import { loadHandler } from './handlers.ts';
import { lambdaContext } from './lambda-context.ts';

// Serves the route table on this machine as API Gateway's HTTP API (payload 2.0) would: each
// request becomes the same event a deployed function receives, and its result the response.

/** API Gateway refuses payloads over 10 MB before any function runs. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

interface CompiledRoute {
  route: RouteDef;
  pattern: RegExp;
  names: string[];
}

function compile(route: RouteDef): CompiledRoute {
  return { route, ...compilePath(route.path) };
}

function compilePath(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)(\\\+)?\\?\}/g, (_m, name: string, greedy?: string) => {
    names.push(name);
    // `{name+}`: API Gateway's greedy parameter, every path below.
    return greedy ? '(.+)' : '([^/]+)';
  });
  return { pattern: new RegExp(`^${source}$`), names };
}

export interface LocalApi {
  url: string;
  close(): Promise<void>;
}

/** One HTTP request as it reaches API Gateway: what the gateway turns into a function's event. */
export interface GatewayRequest {
  method: string;
  /** The request target: path and query string, percent-encoded as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  httpVersion?: string;
  sourceIp?: string;
}

export type Dispatch = (request: GatewayRequest) => Promise<APIGatewayProxyStructuredResultV2>;

/**
 * Routes a request to the handler of its route, as API Gateway would, and returns the handler's
 * result: what the local server does for every request, callable without a socket (tests).
 */
export function localDispatcher(routes: readonly RouteDef[]): Dispatch {
  // Like API Gateway, literal segments win over path parameters.
  const compiled = routes.map(compile).sort((a, b) => a.names.length - b.names.length);
  const route = routeTo(compiled);
  // Like API Gateway's CORS configuration: preflights answered before any function, and the
  // allowed origin on every answer.
  const allowed = parseAllowedOrigins(optional(ENV.corsAllowedOrigins));
  return async (request) => {
    const origin = headerValue(request.headers.origin);
    if (request.method === 'OPTIONS' && origin) return { statusCode: 204, headers: preflightHeaders(origin, allowed) };
    const result = await route(request);
    return { ...result, headers: { ...result.headers, ...corsHeaders(origin, allowed) } };
  };
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

// The console's page and files (infra/routes/console.ts): after the API's routes, as API Gateway
// prefers a literal path to a greedy one.
const consolePaths = consoleRoute.paths.map((path) => ({ path, ...compilePath(path) }));

function routeTo(compiled: CompiledRoute[]): Dispatch {
  return async (request) => {
    const url = new URL(request.url || '/', 'http://localhost');
    let match: { entry: CompiledRoute; values: RegExpExecArray } | undefined;
    for (const entry of compiled) {
      const values = entry.route.method === request.method ? entry.pattern.exec(url.pathname) : null;
      if (values) {
        match = { entry, values };
        break;
      }
    }
    if (!match && request.method === 'GET') {
      const path = consolePaths.find(({ pattern }) => pattern.test(url.pathname));
      if (path) {
        const serve = await loadHandler(consoleRoute.handler);
        return (await serve(
          toEvent(request, url, `GET ${path.path}`, {}),
          lambdaContext(consoleRoute.operationId),
        )) as APIGatewayProxyStructuredResultV2;
      }
    }
    if (!match) {
      // API Gateway's `$default` route: the same function answers what no route serves.
      const fallback = await loadHandler(fallbackRoute.handler);
      return (await fallback(
        toEvent(request, url, '$default', {}),
        lambdaContext(fallbackRoute.operationId),
      )) as APIGatewayProxyStructuredResultV2;
    }

    const { entry, values } = match;
    const pathParameters = Object.fromEntries(entry.names.map((name, i) => [name, decodeSegment(values[i + 1]!)]));
    const event = toEvent(request, url, `${request.method} ${entry.route.path}`, pathParameters);
    const handler = await loadHandler(entry.route.handler, entry.route.sends);
    return (await handler(event, lambdaContext(entry.route.operationId))) as APIGatewayProxyStructuredResultV2;
  };
}

export async function startApiGateway(routes: readonly RouteDef[], port: number, host = '127.0.0.1'): Promise<LocalApi> {
  const dispatch = localDispatcher(routes);
  const server = createServer((req, res) => {
    serve(dispatch, req, res).catch((error: unknown) => {
      console.error('local api gateway: invocation failed', error);
      if (!res.headersSent) send(res, { statusCode: 500, body: '{"message":"Internal Server Error"}' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const { port: boundPort } = server.address() as { port: number };
  return {
    url: `http://${host}:${boundPort}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serve(dispatch: Dispatch, req: IncomingMessage, res: ServerResponse) {
  const body = await readBody(req);
  if (body === undefined) return send(res, { statusCode: 413, body: '{"message":"Request Entity Too Large"}' });
  const result = await dispatch({
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: req.headers,
    body,
    httpVersion: req.httpVersion,
    ...(req.socket.remoteAddress !== undefined && { sourceIp: req.socket.remoteAddress }),
  });
  send(res, result);
}

/** A path segment, percent-decoded; one that is not valid percent-encoded UTF-8 is passed on as sent. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_PAYLOAD_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_PAYLOAD_BYTES ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function toEvent(req: GatewayRequest, url: URL, routeKey: string, pathParameters: Record<string, string>): APIGatewayProxyEventV2 {
  // API Gateway lower-cases header names and joins repeated headers and query values with commas.
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') cookies.push(...String(value).split(/;\s*/));
    else headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const isText = /json|text|xml|urlencoded/.test(headers['content-type'] ?? 'application/json');
  const { body } = req;
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length > 0 && { cookies }),
    headers,
    ...(Object.keys(query).length > 0 && { queryStringParameters: query }),
    ...(Object.keys(pathParameters).length > 0 && { pathParameters }),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: req.method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion ?? '1.1'}`,
        sourceIp: req.sourceIp ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 && { body: isText ? body.toString('utf8') : body.toString('base64') }),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2) {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  if (result.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(result.body === undefined ? undefined : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}
