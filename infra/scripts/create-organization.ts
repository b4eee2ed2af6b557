import { execFile } from 'node:child_process';
import { parseArgs, promisify } from 'node:util';
import { ENV } from '../../lib/config.ts';
import { RATE_LIMIT_CATEGORIES, type RateLimitCategory } from '../../lib/rate-limits/policy.ts';

// Creates an organization on a deployed stage: its Development and Production environments, an
// API key for each and the starter integrations, exactly as the local stack does. The API keys
// are printed once; the table keeps their hashes and copies sealed under the stage's KMS key.
//
//   npm run create-org -- --name "Acme" --stage prod
//   npm run create-org -- --name "Acme" --table <TableName> --kms-key <SecretsKeyArn> [--region eu-west-1]
//
// With --stage the table and key come from the outputs of the stack Notify-<stage>, read with the
// AWS CLI (`aws cloudformation describe-stacks`), because the CloudFormation SDK client is not a
// dependency of the project. Without the AWS CLI, pass --table and --kms-key (the stack's
// TableName and SecretsKeyArn outputs). AWS credentials and region come from the usual AWS
// environment (AWS_PROFILE, AWS_REGION, ...) or --region.

const USAGE = [
  'Usage: npm run create-org -- --name <organization name> (--stage <stage> | --table <name> --kms-key <arn>) [--region <region>] [--json]',
  "  [--trigger-limit <n>] [--configuration-limit <n>] [--global-limit <n>]   the organization's own API rate limits, " +
    "requests per second (default: the stage's)",
].join('\n');

interface Target {
  table: string;
  kmsKey: string;
  source: string;
}

async function stackOutputs(stackName: string, region: string | undefined): Promise<Record<string, string>> {
  const args = ['cloudformation', 'describe-stacks', '--stack-name', stackName, '--query', 'Stacks[0].Outputs', '--output', 'json'];
  if (region) args.push('--region', region);
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)('aws', args));
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the AWS CLI is not installed' : String((error as Error).message).trim();
    throw new Error(
      `Cannot read the outputs of stack ${stackName}: ${reason}.\n` +
        "Pass --table and --kms-key instead (the stack's TableName and SecretsKeyArn outputs).",
      {
        cause: error,
      },
    );
  }
  const outputs = JSON.parse(stdout) as { OutputKey: string; OutputValue: string }[] | null;
  return Object.fromEntries((outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
}

async function resolveTarget(values: { stage?: string; table?: string; 'kms-key'?: string; region?: string }): Promise<Target> {
  if (values.table && values['kms-key']) {
    return { table: values.table, kmsKey: values['kms-key'], source: `table ${values.table}` };
  }
  if (!values.stage) throw new Error(`Give --stage, or both --table and --kms-key.\n${USAGE}`);
  const stackName = `Notify-${values.stage}`;
  const outputs = await stackOutputs(stackName, values.region);
  const table = values.table ?? outputs.TableName;
  const kmsKey = values['kms-key'] ?? outputs.SecretsKeyArn;
  if (!table || !kmsKey) throw new Error(`Stack ${stackName} has no TableName or SecretsKeyArn output: deploy the current stack first.`);
  return { table, kmsKey, source: `stack ${stackName} (table ${table})` };
}

/** The organization's own rate limits from `--<category>-limit`, or undefined when none is given. */
function rateLimitsOf(values: Record<string, unknown>): Partial<Record<RateLimitCategory, number>> | undefined {
  const limits: Partial<Record<RateLimitCategory, number>> = {};
  for (const category of RATE_LIMIT_CATEGORIES) {
    const raw = values[`${category}-limit`];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0)
      throw new Error(`--${category}-limit must be a positive number of requests per second, got ${JSON.stringify(raw)}`);
    limits[category] = value;
  }
  return Object.keys(limits).length > 0 ? limits : undefined;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      name: { type: 'string' },
      stage: { type: 'string' },
      table: { type: 'string' },
      'kms-key': { type: 'string' },
      region: { type: 'string' },
      json: { type: 'boolean', default: false },
      'trigger-limit': { type: 'string' },
      'configuration-limit': { type: 'string' },
      'global-limit': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const name = values.name?.trim();
  if (!name) throw new Error(`--name is required.\n${USAGE}`);

  const apiRateLimits = rateLimitsOf(values);
  const target = await resolveTarget(values);
  if (values.region) process.env.AWS_REGION = values.region;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env[ENV.tableName] = target.table;
  process.env[ENV.kmsKeyId] = target.kmsKey;

  // Loaded after the environment is set, as a Lambda handler would be.
  const { provisionOrganization } = await import('../../lib/accounts/provision.ts');
  const created = await provisionOrganization(name, { apiRateLimits });
  const environments = created.environments.map(({ environment, apiKey }) => ({
    name: environment.name,
    environmentId: environment._id,
    apiKey,
  }));

  if (values.json) {
    console.log(
      JSON.stringify({ organizationId: created.organization._id, name, ...(apiRateLimits && { apiRateLimits }), environments }, null, 2),
    );
    return;
  }
  const width = Math.max(...environments.map((e) => e.name.length));
  console.log(`Created organization "${name}" (${created.organization._id}) in ${target.source}.`);
  console.log('Save these API keys now: they are stored only hashed and sealed, and are never shown again.\n');
  for (const e of environments) {
    console.log(`  ${e.name.padEnd(width)}  environment ${e.environmentId}  API key ${e.apiKey}`);
  }
  if (apiRateLimits) {
    console.log(
      `\nAPI rate limits of its own (requests per second): ${Object.entries(apiRateLimits)
        .map(([category, limit]) => `${category} ${limit}`)
        .join(', ')}`,
    );
  }
  console.log('\nCall the API with the header  Authorization: ApiKey <key>');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
