// The inbox's `subscriberHash` (docs/inbox.md, lib/inbox/hmac.ts): hex HMAC-SHA256 of the
// subscriberId keyed with one of the environment's API keys. The console holds that key already,
// so it signs in the browser (WebCrypto) and the inbox opens whether HMAC is on or off (a hash
// sent when HMAC is off is not read). WebCrypto exists on secure origins only (https, localhost):
// elsewhere there is no hash, and only an environment without HMAC opens.

export async function subscriberHash(apiKey: string, subscriberId: string): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(apiKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = await crypto.subtle.sign('HMAC', key, encoder.encode(subscriberId));
  return Array.from(new Uint8Array(signature), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
