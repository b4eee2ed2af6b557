import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalApi } from '#infra/local/api-gateway.ts';
import { ENV, tableName } from '#lib/config.ts';
import { open } from '#lib/crypto/data-keys.ts';
import { db } from '#lib/store/client.ts';
import { keys } from '#lib/store/keys.ts';
import { apiClient, newOrganization, startTestApi, type ApiClient } from '../support/api.ts';
import { startFakeKms } from '../support/fake-kms.ts';

// The AWS path of secrets at rest (lib/crypto/data-keys.ts), which the local stack does not take:
// with SECRETS_KMS_KEY_ID set, each record's data key comes from KMS GenerateDataKey and is
// unwrapped with KMS Decrypt. No AWS account here, so KMS is a local server speaking its JSON
// protocol (the same wire format the SDK sends to AWS), reached through the SDK's own endpoint
// setting (AWS_ENDPOINT_URL_KMS). It wraps data keys under a key of its own, bound to the key id.

const KEY_ARN = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';

let kms: Awaited<ReturnType<typeof startFakeKms>>;
let api: LocalApi;
let client: ApiClient;
let organizationId: string;
const restoreEnv: Record<string, string | undefined> = {};

beforeAll(async () => {
  kms = await startFakeKms();
  // Before any handler runs in this worker: data-keys.ts picks its key source on first use.
  const env = { [ENV.kmsKeyId]: KEY_ARN, AWS_ENDPOINT_URL_KMS: kms.url };
  for (const [name, value] of Object.entries(env)) {
    restoreEnv[name] = process.env[name];
    process.env[name] = value;
  }
  api = await startTestApi();
  const org = await newOrganization();
  organizationId = org.organization._id;
  client = apiClient(api.url, org.environments[0]!.apiKey);
});

afterAll(async () => {
  await api?.close();
  kms?.server.close();
  for (const [name, value] of Object.entries(restoreEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('integration secrets with SECRETS_KMS_KEY_ID set (the AWS path)', () => {
  const credentials = { apiKey: 'SG.kms-secret-value', from: 'no-reply@example.com', senderName: 'Example' };

  it('wraps each record’s data key with KMS, stores only ciphertext, and reads it back', async () => {
    const callsBefore = kms.calls.length;
    const created = await client.post('/v1/integrations', { providerId: 'sendgrid', channel: 'email', credentials, active: true });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.credentials.apiKey).toBe(credentials.apiKey);

    const generate = kms.calls.slice(callsBefore).filter((c) => c.target === 'TrentService.GenerateDataKey');
    expect(generate).toHaveLength(1);
    expect(generate[0]!.body).toMatchObject({ KeyId: KEY_ARN, KeySpec: 'AES_256' });
    expect(generate[0]!.signedBy, 'requests are SigV4-signed').toBeDefined();

    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.integration(organizationId, created.body.data._id) }),
    );
    expect(Item!.dataKey).toMatch(/^kms:/);
    expect(Item!.credentials.apiKey).toMatch(/^enc:v1:/);
    expect(JSON.stringify(Item)).not.toContain(credentials.apiKey);

    const listed = await client.get('/v1/integrations');
    expect(listed.body.find((i: { _id: string }) => i._id === created.body.data._id).credentials).toEqual(credentials);
  });

  it('unwraps a stored data key with KMS Decrypt in a fresh container, bound to the key', async () => {
    const created = await client.post('/v1/integrations', { providerId: 'sendgrid', channel: 'email', credentials, active: false });
    const { Item } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.integration(organizationId, created.body.data._id) }),
    );
    // A new module instance: no data key cached, as in a cold Lambda container.
    vi.resetModules();
    const { dataKeys } = await import('#lib/crypto/data-keys.ts');
    const before = kms.calls.length;
    const key = await dataKeys().unwrap(Item!.dataKey);
    const decrypt = kms.calls.slice(before);
    expect(decrypt.map((c) => c.target)).toEqual(['TrentService.Decrypt']);
    expect(decrypt[0]!.body.KeyId).toBe(KEY_ARN);
    expect(decrypt[0]!.body.CiphertextBlob).toBe(Item!.dataKey.slice('kms:'.length));
    const sealed = (Item!.credentials.apiKey as string).slice('enc:v1:'.length);
    expect(open(key, sealed).toString('utf8')).toBe(credentials.apiKey);
    // Cached for the container's life: a second unwrap calls KMS no more.
    await dataKeys().unwrap(Item!.dataKey);
    expect(kms.calls.length).toBe(before + 1);
  });
});
