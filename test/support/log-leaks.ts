import { createHash } from 'node:crypto';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { decryptSecrets } from '#lib/crypto/secret-fields.ts';
import { SECRET_CREDENTIAL_KEYS } from '#lib/integrations/catalogue.ts';
import { db, dynamo } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import { ENDPOINT_ITEM_TYPE } from '#lib/webhooks/repository.ts';
import { isServiceLogLine } from './log-capture.ts';
import { scanTable } from './table-scan.ts';

// What the whole-suite log capture must not contain (issue 9, item 5), found without knowing in
// advance which keys and secrets the tests used:
// - API keys: every 48-hex-character token in the capture is hashed, and a hash that is an API
//   key item of any table means a live key was logged (keys are stored only as hashes);
// - integration secrets (apiKey, token, password, ...): read back from every integration of the
//   run's table and decrypted, plus those inside the encrypted responses kept for idempotent
//   replay (they carry credentials as they were when answered, including ones since replaced);
// - an Authorization header or `ApiKey <key>` in a service log line.
// Secrets refused before they were stored (a 422 body) cannot be known here; the focused test
// secrets-in-logs.test.ts covers those with values it chose.

/** The shape of an API key (lib/auth/api-keys.ts: 24 random bytes, hex). */
const API_KEY_SHAPE = /(?<![0-9a-f])[0-9a-f]{48}(?![0-9a-f])/g;
/** Shorter stored values ('abc', 'token') would match ordinary text; tests' secrets are longer. */
export const MIN_SECRET_LENGTH = 10;
/** `secret`: a webhook endpoint's signing secret (also in the create and rotate answers kept for replay). */
const SECRET_FIELDS = new Set<string>([...SECRET_CREDENTIAL_KEYS, 'inboundWebhookSigningKey', 'secret']);

export interface Leak {
  file: string;
  what: string;
  /** The start of the value only: the report must not leak it again. */
  sample: string;
}

export interface Known {
  /** Plaintext secrets that must not appear anywhere. */
  secrets: Iterable<string>;
  /** Is this token a live API key? */
  isApiKey: (token: string) => boolean;
}

export const apiKeyCandidates = (text: string): Set<string> => new Set(text.match(API_KEY_SHAPE) ?? []);

const redact = (value: string) => `${value.slice(0, 6)}… (${value.length} chars)`;

/** The leaks in captured output, by file. */
export function findLeaks(files: ReadonlyMap<string, string>, known: Known): Leak[] {
  const leaks: Leak[] = [];
  const secrets = [...new Set(known.secrets)].filter((s) => s.length >= MIN_SECRET_LENGTH);
  for (const [file, text] of files) {
    for (const token of apiKeyCandidates(text)) {
      if (known.isApiKey(token)) leaks.push({ file, what: 'API key', sample: redact(token) });
    }
    for (const secret of secrets) {
      if (text.includes(secret)) leaks.push({ file, what: 'integration secret', sample: redact(secret) });
    }
    const logLines = text.split('\n').filter(isServiceLogLine);
    for (const line of logLines) {
      if (/authorization/i.test(line)) leaks.push({ file, what: 'Authorization header in a log line', sample: line.slice(0, 80) });
      const scheme = /ApiKey\s+([0-9a-f]{16,})/.exec(line);
      if (scheme) leaks.push({ file, what: '`ApiKey <key>` in a log line', sample: redact(scheme[1]!) });
    }
  }
  return leaks;
}

/** Of these tokens, the ones whose SHA-256 is an API key item in some table of the run. */
export async function liveApiKeys(tokens: Iterable<string>): Promise<Set<string>> {
  const byHash = new Map([...tokens].map((t) => [createHash('sha256').update(t, 'utf8').digest('hex'), t]));
  const live = new Set<string>();
  if (byHash.size === 0) return live;
  const { TableNames = [] } = await dynamo().send(new ListTablesCommand({}));
  const hashes = [...byHash.keys()];
  for (const table of TableNames) {
    for (let i = 0; i < hashes.length; i += 100) {
      let request: Record<string, { Keys: Record<string, unknown>[] }> | undefined = {
        [table]: { Keys: hashes.slice(i, i + 100).map((h) => ({ ...keys.apiKey(h) })) },
      };
      while (request && Object.keys(request).length > 0) {
        const out = await db().send(new BatchGetCommand({ RequestItems: request }));
        for (const item of out.Responses?.[table] ?? []) live.add(byHash.get(String(item.pk).slice('APIKEY#'.length))!);
        request = out.UnprocessedKeys as typeof request;
      }
    }
  }
  return live;
}

/** The plaintext of every secret stored in the run's table: integration credentials and idempotent replies. */
export async function storedSecrets(): Promise<Set<string>> {
  const secrets = new Set<string>();
  const collect = (value: unknown, key?: string): void => {
    if (typeof value === 'string') {
      if (key && SECRET_FIELDS.has(key)) secrets.add(value);
    } else if (Array.isArray(value)) {
      for (const v of value) collect(v);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) collect(v, k);
    }
  };
  const items = scanTable({
    FilterExpression: '#type IN (:integration, :endpoint) OR begins_with(pk, :idempotency)',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: {
      ':integration': 'Integration',
      ':endpoint': ENDPOINT_ITEM_TYPE,
      ':idempotency': `${keys.idempotency.prefix}#`,
    },
  });
  for await (const item of items) {
    // Wrapped by the stand-in KMS of secrets-kms.test.ts, gone with its worker: that file's own
    // constants, which nothing else logs.
    if (String(item.dataKey ?? item.data?.dataKey).startsWith('kms:')) continue;
    if (item.type === 'Integration') {
      collect(await decryptSecrets({ credentials: item.credentials ?? {}, configurations: item.configurations }, item.dataKey));
    } else if (item.type === ENDPOINT_ITEM_TYPE) {
      collect(await decryptSecrets({ signing: { secret: item.secret } }, item.dataKey));
    } else {
      const data = item.data as { response?: { body?: string }; dataKey?: string } | undefined;
      const body = data?.response?.body;
      if (typeof body !== 'string') continue;
      const { response } = await decryptSecrets({ response: { body } }, data?.dataKey);
      try {
        collect(JSON.parse(response.body as string));
      } catch {
        // not JSON: nothing to collect
      }
    }
  }
  return secrets;
}

/** The leaks in the capture of `files`, against what the run stored. */
export async function leaksInCapture(
  files: ReadonlyMap<string, string>,
): Promise<{ leaks: Leak[]; secrets: number; apiKeyTokens: number }> {
  const tokens = new Set<string>();
  for (const text of files.values()) for (const t of apiKeyCandidates(text)) tokens.add(t);
  const [live, secrets] = await Promise.all([liveApiKeys(tokens), storedSecrets()]);
  return { leaks: findLeaks(files, { secrets, isApiKey: (t) => live.has(t) }), secrets: secrets.size, apiKeyTokens: tokens.size };
}
