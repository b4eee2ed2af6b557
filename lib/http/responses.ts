import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { AppError } from '../errors.ts';
import { logger } from '../logger.ts';

// Every response leaves through here: success bodies as they are, errors in the one error body
// of the whole API: {statusCode, timestamp, path, message, error, errors?, errorId?}.

export type HttpResponse = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

const JSON_HEADERS = { 'content-type': 'application/json' };

export function jsonResponse(statusCode: number, body: unknown): HttpResponse {
  return body === undefined ? { statusCode, headers: {} } : { statusCode, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
}

export function requestPath(event: APIGatewayProxyEventV2): string {
  return event.rawQueryString ? `${event.rawPath}?${event.rawQueryString}` : event.rawPath;
}

/** Known errors keep their status and message; anything else is a fault, logged with an id. */
export function errorResponse(error: unknown, event: APIGatewayProxyEventV2): HttpResponse {
  const base = { timestamp: new Date().toISOString(), path: requestPath(event) };
  if (error instanceof AppError) {
    const response = jsonResponse(error.status, {
      statusCode: error.status,
      ...base,
      message: error.message,
      error: STATUS_CODES[error.status],
      ...(error.details.errors && { errors: error.details.errors }),
    });
    Object.assign(response.headers, error.details.headers);
    return response;
  }
  const errorId = randomUUID();
  logger.error('Unhandled error', { errorId, error: error as Error });
  return jsonResponse(500, {
    statusCode: 500,
    ...base,
    message: 'Internal server error, contact support and provide them with the errorId',
    error: STATUS_CODES[500],
    errorId,
  });
}
