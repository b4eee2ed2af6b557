// A query string as its keys were sent: a key given once maps to its value, a repeated key to all
// its values in order. Read from the raw query string, the same in AWS and locally, so repeated
// values that hold commas survive (API Gateway's `queryStringParameters` joins them with commas).

export function queryLists(rawQueryString: string | undefined): Record<string, string | string[]> {
  const values = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(rawQueryString ?? '')) {
    const list = values.get(name);
    if (list) list.push(value);
    else values.set(name, [value]);
  }
  // fromEntries defines own properties, so a `__proto__` key stays a plain key.
  return Object.fromEntries([...values].map(([name, list]) => [name, list.length === 1 ? list[0]! : list]));
}
