import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Stack, Validations } from 'aws-cdk-lib';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IConstruct } from 'constructs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { NotifyStack, type NotifyStackProps } from '#infra/stack.ts';
import { NAG_PACK, UNAUTHORIZED_ROUTE_REASONS } from '#infra/constructs/nag.ts';
import { pascalCase } from '#infra/names.ts';
import { socketRoutes } from '#infra/ws-routes.ts';
import { synthApp } from '../support/synth-app.ts';

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

/** The findings of the rule pack on a stage's app, one line each: `rule (severity) at path: description`. */
function nagFindings(stage: string, props: Partial<NotifyStackProps>, extend?: (stack: NotifyStack) => void): string[] {
  const app = synthApp();
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
  const report = JSON.parse(readFileSync(path.join(app.outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
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
    socketAccessLogs: true,
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

  it('acknowledges each finding on its own construct, with a reason, and each route by its kind of caller', () => {
    const app = synthApp();
    const stack = new NotifyStack(app, 'Notify-dev', { stage: 'dev' });
    /** Qualified rule id → reason, acknowledged on this very construct. */
    const acknowledgedOn = (construct: IConstruct): Record<string, string> =>
      Object.fromEntries(
        construct.node.metadata
          .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((m) => Object.entries(m.data as Record<string, string>)),
      );
    /** The same for a construct path, the pack's prefix left out. */
    const acknowledged = (path: string): Record<string, string> => {
      const construct = stack.node.findAll().find((c) => c.node.path === path);
      expect(construct, path).toBeDefined();
      return Object.fromEntries(
        Object.entries(acknowledgedOn(construct!)).map(([id, reason]) => [id.replace(`${NAG_PACK}::`, ''), reason]),
      );
    };
    const all = stack.node.findAll().filter((c) => Object.keys(acknowledgedOn(c)).length > 0);
    expect(all.length).toBeGreaterThan(0);
    for (const construct of all) {
      // Never a whole stack's rule: each on the resource it concerns.
      expect(construct instanceof Stack, construct.node.path).toBe(false);
      for (const [id, reason] of Object.entries(acknowledgedOn(construct))) {
        expect(id, construct.node.path).toMatch(new RegExp(`^${NAG_PACK}::${NAG_PACK}-`));
        expect(reason.length, `${construct.node.path} ${id}`).toBeGreaterThan(40);
      }
    }
    for (const routeStack of stack.routeStacks) {
      for (const route of routeStack.routes) {
        expect(acknowledged(`${routeStack.node.path}/${pascalCase(route.operationId)}Route`)).toEqual({
          [`${NAG_PACK}-APIG4`]: UNAUTHORIZED_ROUTE_REASONS[route.auth],
        });
      }
    }
    // $connect has its authorizer: nothing to acknowledge there.
    for (const route of socketRoutes) {
      const ids = Object.keys(acknowledged(`${stack.sockets.node.path}/SocketApi/${route.routeKey}-Route`));
      expect(ids, route.routeKey).toEqual(route.routeKey === '$connect' ? [] : [`${NAG_PACK}-APIG4`]);
    }
  });
});
