// Whether a request for an open pixel is a machine fetching the mail rather than a person
// opening it, as far as its headers tell (docs/engagement.md: opens are approximate).
// - Apple Mail Privacy Protection loads every image of every mail when it arrives, through
//   Apple's proxies, whatever the person does; its requests carry a bare `Mozilla/5.0` user agent
//   (no platform, no engine), which no mail client a person uses sends.
// - Security scanners and link checkers (Microsoft Defender, Mimecast, Proofpoint, Barracuda,
//   ...) and HTTP libraries name themselves in the user agent, or send none.
// - `Purpose`/`Sec-Purpose: prefetch` and `X-Moz: prefetch` are what browsers send when they
//   fetch ahead of a person.
// Gmail's and Yahoo's image proxies fetch when the person opens the mail: those are opens.

const SCANNERS = new RegExp(
  [
    'bot|crawler|spider|scan|preview',
    'python|curl|wget|go-http|java/|okhttp|axios|node-fetch|undici|libwww|httpclient',
    'barracuda|mimecast|proofpoint|forcepoint|fireeye|trendmicro|symantec|sophos|cisco|ironport|safelinks|defender|zscaler|checkpoint',
  ].join('|'),
  'i',
);

export function isPrefetch(headers: Record<string, string | undefined>): boolean {
  const ua = (headers['user-agent'] ?? '').trim();
  if (ua === '' || ua === 'Mozilla/5.0') return true;
  if (SCANNERS.test(ua)) return true;
  const purpose = `${headers['purpose'] ?? ''} ${headers['sec-purpose'] ?? ''} ${headers['x-moz'] ?? ''}`;
  return /prefetch|preview/i.test(purpose);
}
