import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { NotFoundError } from '#lib/errors.ts';
import { errorResponse } from '#lib/http/responses.ts';

// infra/routes/fallback.ts: every request no route serves. The reference's message for it.
export const handler = async (event: APIGatewayProxyEventV2) =>
  errorResponse(new NotFoundError(`Cannot ${event.requestContext.http.method} ${event.rawPath}`), event);
