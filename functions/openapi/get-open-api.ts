import { route, routes } from '#infra/routes.ts';
import { publicHttpHandler } from '#lib/http/public-handler.ts';
import { buildOpenApi } from '#lib/http/openapi.ts';

// Built once per container: the route table does not change while it runs.
const document = buildOpenApi(routes, { title: 'Notification delivery service', version: '1.0.0' });

export const handler = publicHttpHandler(route('getOpenApi'), async () => document);
