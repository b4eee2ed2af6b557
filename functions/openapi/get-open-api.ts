import { route } from '#infra/routes/openapi.ts';
import { publicHttpHandler } from '#lib/http/public-handler.ts';
import { openApiDocumentResponse } from '#lib/http/openapi-file.ts';

export const handler = publicHttpHandler(route('getOpenApi'), async () => openApiDocumentResponse());
