import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { RouteDef } from '#lib/http/route.ts';
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
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}$`), names };
}

export interface LocalApi {
  url: string;
  close(): Promise<void>;
}

export async function startApiGateway(routes: readonly RouteDef[], port: number, host = '127.0.0.1'): Promise<LocalApi> {
  // Like API Gateway, literal segments win over path parameters.
  const compiled = routes.map(compile).sort((a, b) => a.names.length - b.names.length);

  const server = createServer((req, res) => {
    serve(compiled, req, res).catch((error: unknown) => {
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

async function serve(routes: CompiledRoute[], req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const method = req.method ?? 'GET';
  let match: { entry: CompiledRoute; values: RegExpExecArray } | undefined;
  for (const entry of routes) {
    const values = entry.route.method === method ? entry.pattern.exec(url.pathname) : null;
    if (values) {
      match = { entry, values };
      break;
    }
  }
  if (!match) return send(res, { statusCode: 404, body: '{"message":"Not Found"}' });

  const body = await readBody(req);
  if (body === undefined) return send(res, { statusCode: 413, body: '{"message":"Request Entity Too Large"}' });

  const { entry, values } = match;
  const pathParameters = Object.fromEntries(entry.names.map((name, i) => [name, decodeURIComponent(values[i + 1]!)]));
  const event = toEvent(req, url, body, `${method} ${entry.route.path}`, pathParameters);
  const handler = await loadHandler(entry.route.handler);
  const result = (await handler(event, lambdaContext(entry.route.operationId))) as APIGatewayProxyStructuredResultV2;
  send(res, result);
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

function toEvent(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  routeKey: string,
  pathParameters: Record<string, string>,
): APIGatewayProxyEventV2 {
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
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
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
