import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCallerByApiKey } from '#lib/auth/api-keys.ts';
import { getOrganizationRateLimits } from '#lib/rate-limits/organization-limits.ts';
import { listEnvironments } from '#lib/accounts/environments.ts';
import { startFakeKms } from '../support/fake-kms.ts';

// `npm run create-org` as an operator runs it against AWS, here against the emulators: explicit
// --table and --kms-key flags (no stack lookup); the emulator endpoints come from the environment.
// The API keys are kept sealed under data keys of the KMS key: a stand-in for KMS answers
// (test/support/fake-kms.ts) and records what the script asked of it.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const KEY_ARN = 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-0000-0000-000000000000';

let kms: Awaited<ReturnType<typeof startFakeKms>>;
beforeAll(async () => {
  kms = await startFakeKms();
});
afterAll(() => new Promise<void>((resolve) => kms.server.close(() => resolve())));

function createOrg(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'infra/scripts/create-organization.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, AWS_ENDPOINT_URL_KMS: kms.url, AWS_REGION: 'us-east-1' },
  });
}

describe('create-organization script', () => {
  it('creates the organization and prints API keys that authenticate', async () => {
    const { stdout } = await createOrg('--name', 'Acme Script', '--table', process.env.TABLE_NAME!, '--kms-key', KEY_ARN);
    expect(stdout).toMatch(/Created organization "Acme Script" \(([0-9a-f]{24})\)/);
    const organizationId = /\(([0-9a-f]{24})\)/.exec(stdout)![1]!;
    const printed = [...stdout.matchAll(/^\s+(\w+)\s+environment (\w+)\s+API key (\w+)$/gm)].map((m) => ({
      name: m[1]!,
      environmentId: m[2]!,
      apiKey: m[3]!,
    }));
    expect(printed.map((p) => p.name)).toEqual(['Development', 'Production']);

    for (const { environmentId, apiKey } of printed) {
      expect(await findCallerByApiKey(apiKey)).toMatchObject({ organizationId, environmentId });
    }
    const stored = await listEnvironments(organizationId);
    expect(stored.map((e) => e._id).sort()).toEqual(printed.map((p) => p.environmentId).sort());
    // Each key was sealed under a data key of the stage's KMS key.
    expect(kms.calls.filter((c) => c.target === 'TrentService.GenerateDataKey' && c.body.KeyId === KEY_ARN).length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it('prints JSON with --json', async () => {
    const { stdout } = await createOrg('--name', 'Acme Json', '--json', '--table', process.env.TABLE_NAME!, '--kms-key', KEY_ARN);
    const out = JSON.parse(stdout) as { organizationId: string; environments: { environmentId: string; apiKey: string }[] };
    expect(out.environments).toHaveLength(2);
    const caller = await findCallerByApiKey(out.environments[0]!.apiKey);
    expect(caller?.organizationId).toBe(out.organizationId);
  });

  it('gives the organization API rate limits of its own with --<category>-limit', async () => {
    const { stdout } = await createOrg(
      '--name',
      'Acme Limits',
      '--json',
      '--trigger-limit',
      '1000',
      '--global-limit',
      '12.5',
      '--table',
      process.env.TABLE_NAME!,
      '--kms-key',
      KEY_ARN,
    );
    const { organizationId } = JSON.parse(stdout) as { organizationId: string };
    expect(await getOrganizationRateLimits(organizationId)).toEqual({ trigger: 1000, global: 12.5 });
    await expect(createOrg('--name', 'Acme', '--table', 'x', '--kms-key', 'y', '--trigger-limit', '0')).rejects.toMatchObject({
      stderr: expect.stringContaining('--trigger-limit must be a positive number'),
    });
  });

  it('refuses to run without a name or a target', async () => {
    await expect(createOrg('--table', 'x', '--kms-key', 'y')).rejects.toMatchObject({
      stderr: expect.stringContaining('--name is required'),
    });
    await expect(createOrg('--name', 'Acme')).rejects.toMatchObject({ stderr: expect.stringContaining('--stage') });
  });
});
