/** An answer of the API other than 2xx, with the message its error body gives. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The whole error body, for the details a form shows next to its fields. */
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** The message of the service's error body: `message` may be a string or a list of strings. */
export function messageOf(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (Array.isArray(message)) return message.map(String).join('; ');
    if (typeof message === 'string' && message) return message;
    if (typeof error === 'string' && error) return error;
  }
  return `The API answered ${status}`;
}
