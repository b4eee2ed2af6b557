import { routes } from '#infra/routes.ts';
import { startApiGateway, type LocalApi } from '#infra/local/api-gateway.ts';
import { ENV } from '#lib/config.ts';
import type { EnvScope } from '#lib/scope.ts';
import { issueApiKey } from '#lib/auth/api-keys.ts';
import { newId } from '#lib/ids.ts';
import { createIntegration } from '#lib/integrations/create.ts';
import { newApplicationIdentifier, putEnvironment } from '#lib/accounts/environments.ts';
import { provisionOrganization, type ProvisionedOrganization } from '#lib/accounts/provision.ts';

// What integration tests use: the real handlers behind the local API Gateway (started in the
// test worker, on a free port), a fresh organization per test file, and a small HTTP client.
// Sockets go to the one WebSocket API the global setup started (beside the live consumer).

export interface TestApi extends LocalApi {
  /** `ws://…`: the local WebSocket API, the `socketUrl` a client is given. */
  socketUrl: string;
}

export async function startTestApi(): Promise<TestApi> {
  const api = await startApiGateway(routes, 0);
  return { ...api, socketUrl: process.env[ENV.socketUrl] ?? '' };
}

/** `createdAt`: for an organization that existed before the records a test seeds (now unless told). */
export function newOrganization(name = 'Test Organization', options: { createdAt?: Date } = {}): Promise<ProvisionedOrganization> {
  return provisionOrganization(name, options);
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ApiClient {
  request<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  delete<T = any>(path: string, headers?: Record<string, string>): Promise<ApiResponse<T>>;
}

/**
 * A client for `baseUrl`; with an API key it sends `Authorization: ApiKey <key>` on every call,
 * with `{ bearer }` an inbox session's `Authorization: Bearer <token>`.
 */
export function apiClient(baseUrl: string, credential?: string | { bearer: string }): ApiClient {
  const authorization =
    credential === undefined ? undefined : typeof credential === 'string' ? `ApiKey ${credential}` : `Bearer ${credential.bearer}`;
  const request: ApiClient['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (authorization && !('authorization' in headers)) headers.authorization = authorization;
    let payload: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, ...(payload !== undefined && { body: payload }) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, headers: res.headers, body: body as any };
  };
  return {
    request,
    get: (path, headers) => request('GET', path, { ...(headers && { headers }) }),
    post: (path, body, headers) => request('POST', path, { body, ...(headers && { headers }) }),
    put: (path, body, headers) => request('PUT', path, { body, ...(headers && { headers }) }),
    patch: (path, body, headers) => request('PATCH', path, { body, ...(headers && { headers }) }),
    delete: (path, headers) => request('DELETE', path, { ...(headers && { headers }) }),
  };
}

export interface TestEnv {
  id: string;
  scope: EnvScope;
  client: ApiClient;
  apiKey: string;
  /** The environment's public identifier (what an inbox session is opened with). */
  applicationIdentifier: string;
}

export interface TestOrg {
  id: string;
  dev: TestEnv;
  prod: TestEnv;
}

/** A new organization with a client for each of its environments, against the API at `baseUrl`. */
export async function createTestOrg(baseUrl: string, options: { createdAt?: Date } = {}): Promise<TestOrg> {
  const org = await newOrganization(undefined, options);
  const env = (name: string): TestEnv => {
    const found = org.environments.find((e) => e.environment.name === name);
    if (!found) throw new Error(`No ${name} environment`);
    return {
      id: found.environment._id,
      scope: { organizationId: org.organization._id, environmentId: found.environment._id },
      client: apiClient(baseUrl, found.apiKey),
      apiKey: found.apiKey,
      applicationIdentifier: found.environment.identifier,
    };
  };
  return { id: org.organization._id, dev: env('Development'), prod: env('Production') };
}

/**
 * A third environment of the organization made as environments were before layouts were a
 * resource: an API key and the demo email integration, no layout.
 */
export async function createEnvironmentWithoutLayouts(baseUrl: string, organizationId: string): Promise<TestEnv> {
  const environment = {
    _id: newId(),
    _organizationId: organizationId,
    name: 'Legacy',
    identifier: newApplicationIdentifier(),
    createdAt: new Date().toISOString(),
  };
  await putEnvironment(environment);
  const owner = { organizationId, environmentId: environment._id, userId: newId() };
  const apiKey = await issueApiKey(owner);
  await createIntegration(owner, { providerId: 'svc-email', channel: 'email', active: true });
  return { id: environment._id, scope: owner, client: apiClient(baseUrl, apiKey), apiKey, applicationIdentifier: environment.identifier };
}

/** Opens an inbox session for the subscriber (made if missing); a client sending its token. */
export async function inboxClient(
  baseUrl: string,
  env: TestEnv,
  subscriber: string | Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<ApiClient & { token: string }> {
  const res = await apiClient(baseUrl).post('/v1/inbox/session', {
    applicationIdentifier: env.applicationIdentifier,
    subscriber,
    ...extra,
  });
  if (res.status !== 201) throw new Error(`inbox session: ${res.status} ${JSON.stringify(res.body)}`);
  const token = res.body.data.token as string;
  return { ...apiClient(baseUrl, { bearer: token }), token };
}
