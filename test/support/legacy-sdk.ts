import { expect } from 'vitest';
import type { ApiResponse } from './api.ts';

// What the tests of the legacy v1 routes share, as `@novu/node` 2.x (axios) shows answers.

/** What the SDK throws for an error answer: axios's error, with the status and our error body. */
export async function sdkError(call: Promise<unknown>): Promise<{ status: number; body: any }> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as { isAxiosError?: boolean; response?: { status: number; data: unknown } } | undefined;
  expect(error?.isAxiosError).toBe(true);
  return { status: error!.response!.status, body: error!.response!.data };
}

/** An error answer with the service's one error body. */
export function expectError(res: ApiResponse | { status: number; body: any }, status: number, error: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({
    statusCode: status,
    error,
    timestamp: expect.any(String),
    path: expect.any(String),
    message: expect.any(String),
  });
}

/** A database id, and an ISO timestamp, as the reference's bodies carry them. */
export const ID = expect.stringMatching(/^[0-9a-f]{24}$/);
export const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
