import { route, routes } from '#infra/routes.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { buildOpenApi } from '#lib/http/openapi.ts';

// Built once per container: the route table does not change while it runs.
const document = buildOpenApi(routes, { title: 'Notification delivery service', version: '1.0.0' });

export const handler = httpHandler(route('getOpenApi'), async () => document);
