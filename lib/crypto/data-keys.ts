import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { KMSClient } from '@aws-sdk/client-kms';
import { ENV, optional } from '../config.ts';

// Envelope encryption: each record's secrets are encrypted with their own data key, and only the
// wrapped (encrypted) data key is stored beside them. In AWS, KMS wraps the data keys; locally a
// master key file does, so the local stack needs no AWS account.

export interface DataKeySource {
  generate(): Promise<{ plaintext: Buffer; wrapped: string }>;
  unwrap(wrapped: string): Promise<Buffer>;
}

const ALGORITHM = 'aes-256-gcm';

/** AES-256-GCM; output is `iv.tag.ciphertext`, each base64. */
export function seal(key: Buffer, plaintext: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64')).join('.');
}

export function open(key: Buffer, sealed: string): Buffer {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64'));
  if (!iv || !tag || !body) throw new Error('Malformed ciphertext');
  const decipher = createDecipheriv(ALGORITHM, key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]);
}

class LocalKeySource implements DataKeySource {
  private readonly master: Buffer;

  constructor(file: string) {
    if (!existsSync(file)) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
    }
    this.master = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (this.master.length !== 32) throw new Error(`${file} must hold a base64 32-byte key`);
  }

  async generate() {
    const plaintext = randomBytes(32);
    return { plaintext, wrapped: `local:${seal(this.master, plaintext)}` };
  }

  async unwrap(wrapped: string) {
    if (!wrapped.startsWith('local:')) throw new Error('Data key was not wrapped by the local key');
    return open(this.master, wrapped.slice('local:'.length));
  }
}

// The KMS client is loaded when a secret is first sealed or opened, not at init: most functions
// never touch a secret, and loading the package costs a cold start about 100 ms.
const kmsSdk = () => import('@aws-sdk/client-kms');

class KmsKeySource implements DataKeySource {
  private client?: KMSClient;
  // Unwrapped keys are kept for the life of the container: listing integrations would otherwise
  // cost one KMS call per integration per request.
  private readonly unwrapped = new Map<string, Buffer>();

  constructor(private readonly keyId: string) {}

  private async kms() {
    const sdk = await kmsSdk();
    this.client ??= new sdk.KMSClient({});
    return { client: this.client, sdk };
  }

  async generate() {
    const { client, sdk } = await this.kms();
    const out = await client.send(new sdk.GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256' }));
    if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS returned no data key');
    const wrapped = `kms:${Buffer.from(out.CiphertextBlob).toString('base64')}`;
    const plaintext = Buffer.from(out.Plaintext);
    this.unwrapped.set(wrapped, plaintext);
    return { plaintext, wrapped };
  }

  async unwrap(wrapped: string) {
    const cached = this.unwrapped.get(wrapped);
    if (cached) return cached;
    if (!wrapped.startsWith('kms:')) throw new Error('Data key was not wrapped by KMS');
    const { client, sdk } = await this.kms();
    const out = await client.send(new sdk.DecryptCommand({ KeyId: this.keyId, CiphertextBlob: Buffer.from(wrapped.slice(4), 'base64') }));
    if (!out.Plaintext) throw new Error('KMS returned no plaintext');
    const plaintext = Buffer.from(out.Plaintext);
    this.unwrapped.set(wrapped, plaintext);
    return plaintext;
  }
}

let source: DataKeySource | undefined;

export function dataKeys(): DataKeySource {
  if (source) return source;
  const kmsKeyId = optional(ENV.kmsKeyId);
  const keyFile = optional(ENV.secretsKeyFile);
  if (kmsKeyId) source = new KmsKeySource(kmsKeyId);
  else if (keyFile) source = new LocalKeySource(keyFile);
  else throw new Error(`Set ${ENV.kmsKeyId} (AWS) or ${ENV.secretsKeyFile} (local) to store secrets`);
  return source;
}
