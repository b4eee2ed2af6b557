// The domain's error kinds. Each carries the HTTP status it maps to, so the edge needs no table
// of special cases; domain code never builds HTTP responses itself.

/** The statuses an error may carry (422 only with `errors`: see AppError's constructor). */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504;

export interface ErrorDetails {
  errors?: Record<string, FieldError>;
  headers?: Record<string, string>;
}

export class AppError extends Error {
  readonly status: ErrorStatus;
  readonly details: ErrorDetails;

  /**
   * A 422 cannot be made without `errors`: both SDKs read every 422 as a validation body whose
   * `errors` map is required, and throw on one without it.
   */
  constructor(status: 422, message: string, details: ErrorDetails & { errors: Record<string, FieldError> });
  constructor(status: Exclude<ErrorStatus, 422>, message: string, details?: ErrorDetails);
  constructor(status: ErrorStatus, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.details = details;
  }
}

export interface FieldError {
  messages: string[];
  value: unknown;
}

export class BadRequestError extends AppError {
  constructor(message: string) {
    super(400, message);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message: string) {
    super(401, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super(404, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, headers?: Record<string, string>) {
    super(409, message, headers ? { headers } : {});
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(413, `Request body is larger than ${limitBytes} bytes`);
  }
}

/**
 * 422: one entry per offending field, keyed by its dotted path (a refusal that is about no one
 * field names the field that chose what was refused: a trigger's unknown workflow is `name`).
 */
export class ValidationError extends AppError {
  constructor(errors: Record<string, FieldError>, message = 'Validation Error', headers?: Record<string, string>) {
    super(422, message, { errors, ...(headers && { headers }) });
  }

  static forField(field: string, message: string, value: unknown): ValidationError {
    return new ValidationError({ [field]: { messages: [message], value } });
  }
}

/** 429: the environment's rate-limit bucket lacks the request's tokens (lib/rate-limits). */
export class TooManyRequestsError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, 'API rate limit exceeded', { headers: { 'Retry-After': String(retryAfterSeconds) } });
  }
}

/** 503: a dependency could not take the request; nothing was kept, so the client can retry. */
export class ServiceUnavailableError extends AppError {
  constructor(message: string, retryAfterSeconds = 1) {
    super(503, message, { headers: { 'Retry-After': String(retryAfterSeconds) } });
  }
}
