// The domain's error kinds. Each carries the HTTP status it maps to, so the edge needs no table
// of special cases; domain code never builds HTTP responses itself.
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: { errors?: Record<string, FieldError>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = new.target.name;
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

/** 422: one entry per offending field, keyed by its dotted path. */
export class ValidationError extends AppError {
  constructor(errors: Record<string, FieldError>, message = 'Validation Error') {
    super(422, message, { errors });
  }

  static forField(field: string, message: string, value: unknown): ValidationError {
    return new ValidationError({ [field]: { messages: [message], value } });
  }
}

/** 422 with only a message, for refusals that name no field (a trigger's unknown workflow). */
export class UnprocessableEntityError extends AppError {
  constructor(message: string) {
    super(422, message);
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
