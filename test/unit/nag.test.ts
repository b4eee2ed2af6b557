import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { App, Validations } from 'aws-cdk-lib';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { AwsSolutionsChecks } from 'cdk-nag';
import { NotifyStack, type NotifyStackProps } from '#infra/stack.ts';

// cdk-nag's AwsSolutions rule pack on the whole app (the stack and its nested stacks), for each
// kind of stage infra/app.ts makes: `dev`, whose data goes with the stack, and any other stage,
// which keeps it, with every optional setting of docs/deploy.md given. A finding fails the test
// unless it is acknowledged in code, next to its resource, with its reason (infra/constructs/nag.ts).

interface Violation {
  ruleName: string;
  description: string;
  severity: string;
  violatingConstructs: { constructPath: string }[];
}
interface ValidationReport {
  pluginReports: { pluginName: string; conclusion: string; violations: Violation[] }[];
}

const outdirs: string[] = [];
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

/** The findings of the rule pack on a stage's app, one line each: `rule (severity) at path: description`. */
function nagFindings(stage: string, props: Partial<NotifyStackProps>, extend?: (stack: NotifyStack) => void): string[] {
  const outdir = mkdtempSync(path.join(tmpdir(), 'nag-'));
  outdirs.push(outdir);
  // As stack.test.ts: an empty bundling-stacks list skips esbuild.
  const app = new App({ outdir, context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new NotifyStack(app, `Notify-${stage}`, { stage, ...props });
  extend?.(stack);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
  } catch (error) {
    // A failed validation throws after writing its report; anything else is a real error.
    if ((error as Error).name !== 'ValidationFailed') throw error;
  }
  // The report lists a plugin only when it found something (errors and warnings alike).
  const report = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
  const violations = report.pluginReports.filter((r) => r.pluginName === 'AwsSolutions').flatMap((r) => r.violations);
  return violations.flatMap((v) =>
    v.violatingConstructs.map((c) => `${v.ruleName} (${v.severity}) at ${c.constructPath}: ${v.description}`),
  );
}

const STAGES: Record<string, Partial<NotifyStackProps>> = {
  dev: {},
  prod: {
    alarmEmail: 'ops@example.com',
    corsAllowedOrigins: ['https://app.example.com'],
    apiThrottle: { rateLimit: 50, burstLimit: 100 },
    socketThrottle: { rateLimit: 100, burstLimit: 200 },
    api5xxAlarmThreshold: 10,
    settings: { activityRetentionDays: 14, providerTimeoutMs: 5000 },
    tableWarmThroughput: { writeUnitsPerSecond: 40000, readUnitsPerSecond: 12000 },
  },
};

describe('cdk-nag AwsSolutions', () => {
  for (const [stage, props] of Object.entries(STAGES)) {
    it(`finds nothing unacknowledged on the ${stage} stage's stacks`, () => {
      expect(nagFindings(stage, props)).toEqual([]);
    });
  }

  it('reports a finding that is not acknowledged (the check is live)', () => {
    // A stage whose stack gains an unacknowledged finding must fail: an SNS topic without TLS.
    const findings = nagFindings('probe', {}, (stack) => {
      new Topic(stack, 'PlainTopic');
    });
    expect(findings).toEqual([expect.stringMatching(/^AwsSolutions-SNS3 \(error\) at Notify-probe\/PlainTopic\/Resource: /)]);
  });
});
