/** A console URL: `/console/env/<environmentId>/<area>`, then each id of `ids` encoded as a segment. */
export function consolePath(environmentId: string, area: string, ...ids: string[]): string {
  return [`/console/env/${environmentId}/${area}`, ...ids.map(encodeURIComponent)].join('/');
}
