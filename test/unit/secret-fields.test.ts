import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decryptSecrets, encryptSecrets, isSealed } from '#lib/crypto/secret-fields.ts';

// Envelope encryption of secret fields with the local key source (a key file).
process.env.SECRETS_KEY_FILE ??= join(mkdtempSync(join(tmpdir(), 'notify-keys-')), 'secrets.key');

describe('secret fields', () => {
  const secretKeys = { credentials: ['apiKey', 'password'], configurations: ['inboundWebhookSigningKey'] };

  it('encrypts only the secret fields and reads them back', async () => {
    const groups = {
      credentials: { apiKey: 'SG.123', from: 'a@b.c', password: 'pw' },
      configurations: { inboundWebhookSigningKey: 'whsec', inboundWebhookEnabled: true },
    };
    const { groups: sealed, dataKey } = await encryptSecrets(groups, secretKeys);
    expect(dataKey).toEqual(expect.any(String));
    expect(isSealed(sealed.credentials.apiKey)).toBe(true);
    expect(isSealed(sealed.credentials.password)).toBe(true);
    expect(isSealed(sealed.configurations.inboundWebhookSigningKey)).toBe(true);
    expect(sealed.credentials.from).toBe('a@b.c');
    expect(JSON.stringify(sealed)).not.toContain('SG.123');
    expect(await decryptSecrets(sealed, dataKey)).toEqual(groups);
  });

  it('needs no data key when there is nothing secret', async () => {
    const { groups, dataKey } = await encryptSecrets({ credentials: { from: 'x' } }, secretKeys);
    expect(dataKey).toBeUndefined();
    expect(await decryptSecrets(groups, undefined)).toEqual({ credentials: { from: 'x' } });
  });

  it('gives each record its own data key', async () => {
    const one = await encryptSecrets({ credentials: { apiKey: 'same' } }, secretKeys);
    const two = await encryptSecrets({ credentials: { apiKey: 'same' } }, secretKeys);
    expect(one.dataKey).not.toBe(two.dataKey);
    expect(one.groups.credentials.apiKey).not.toBe(two.groups.credentials.apiKey);
  });

  it('refuses a tampered value instead of returning garbage', async () => {
    const { groups, dataKey } = await encryptSecrets({ credentials: { apiKey: 'secret' } }, secretKeys);
    const value = groups.credentials.apiKey as string;
    const tampered = { credentials: { apiKey: value.slice(0, -4) + (value.endsWith('AAAA') ? 'BBBB' : 'AAAA') } };
    await expect(decryptSecrets(tampered, dataKey)).rejects.toThrow();
  });
});
