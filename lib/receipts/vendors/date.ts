// Reading what a vendor sent once its signature is known good: a body that is not what the
// vendor documents records nothing (and is acknowledged), rather than failing the request.

/** The date as ISO 8601, or undefined when it is none. */
export function validDate(value: string | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
