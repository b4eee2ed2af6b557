import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Duration } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { TABLE_WRITE_ACTIONS } from '#infra/constructs/access.ts';
import { DataStore } from '#infra/constructs/data-store.ts';
import { FunctionFactory, type FunctionSpec } from '#infra/constructs/function-factory.ts';
import { ServiceQueues } from '#infra/constructs/service-queues.ts';
import { queue } from '#infra/queues.ts';
import { ENV } from '#lib/config.ts';
import { SDK_ATTEMPTS } from '#lib/sdk-timeouts.ts';
import { synthApp } from '../support/synth-app.ts';

// The function factory on a stack of its own, with the data and the queues but none of the
// routes, sockets or consumers: what a spec gets (its role's grants, its environment) is
// checked here without synthesizing the whole stage (test/unit/stack.test.ts does that).

interface Statement {
  Action: string | string[];
}

function factoryStack() {
  const stack = new Stack(synthApp(), 'Factory');
  const removalPolicy = RemovalPolicy.DESTROY;
  const data = new DataStore(stack, { stage: 'test', keepData: false, removalPolicy });
  const queues = new ServiceQueues(stack, { stage: 'test' });
  const functions = new FunctionFactory(stack, { data, queues, environment: { LOG_LEVEL: 'INFO' }, removalPolicy });
  return { stack, functions };
}

const spec = (over: Partial<FunctionSpec>): FunctionSpec => ({
  entry: 'functions/http/not-found.ts',
  timeout: Duration.seconds(10),
  access: 'read',
  sends: [],
  ...over,
});

/** The actions a role's policies allow, by the role's construct id (its logical id less CDK's hash). */
function actionsByRole(template: Template): Map<string, string[]> {
  const byRole = new Map<string, string[]>();
  const constructId = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');
  for (const policy of Object.values(template.findResources('AWS::IAM::Policy'))) {
    const props = policy.Properties as { Roles: { Ref: string }[]; PolicyDocument: { Statement: Statement[] } };
    for (const { Ref } of props.Roles) {
      const actions = props.PolicyDocument.Statement.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
      byRole.set(constructId(Ref), [...(byRole.get(constructId(Ref)) ?? []), ...actions]);
    }
  }
  return byRole;
}

describe('the function factory', () => {
  it('gives functions with the same grants one role, and functions with other grants another', () => {
    const { stack, functions } = factoryStack();
    functions.make(stack, 'ReaderA', spec({}));
    functions.make(stack, 'ReaderB', spec({}));
    functions.make(stack, 'Writer', spec({ access: 'write', sends: ['live'] }));
    const template = Template.fromStack(stack);
    const actions = actionsByRole(template);
    expect([...actions.keys()].filter((id) => id.endsWith('FunctionRole')).sort()).toEqual(['ReadFunctionRole', 'WriteLiveFunctionRole']);
    expect(actions.get('ReadFunctionRole')).not.toContain('sqs:SendMessage');
    expect(actions.get('ReadFunctionRole')).not.toEqual(expect.arrayContaining([...TABLE_WRITE_ACTIONS]));
    expect(actions.get('WriteLiveFunctionRole')).toEqual(expect.arrayContaining(['sqs:SendMessage', ...TABLE_WRITE_ACTIONS]));
  });

  it('gives a function the URLs of the queues it sends to, and the wake schedules of one woken later', () => {
    const { stack, functions } = factoryStack();
    functions.make(stack, 'Scheduler', spec({ access: 'write', sends: ['jobs'] }));
    const template = Template.fromStack(stack);
    const [fn] = Object.values(template.findResources('AWS::Lambda::Function'));
    const variables = (fn!.Properties as { Environment: { Variables: Record<string, unknown> } }).Environment.Variables;
    expect(Object.keys(variables)).toEqual(expect.arrayContaining([queue('jobs').urlEnv, queue('jobs').wakeArnEnv!, 'LOG_LEVEL']));
    expect(Object.keys(variables)).not.toContain(queue('live').urlEnv);
    expect(actionsByRole(template).get('WriteJobsFunctionRole')).toEqual(
      expect.arrayContaining(['sqs:SendMessage', 'scheduler:CreateSchedule', 'iam:PassRole']),
    );
  });

  it("bounds each attempt of a function's SDK calls so that all of them fit in its timeout", () => {
    const { stack, functions } = factoryStack();
    for (const seconds of [10, 25, 30, 900]) functions.make(stack, `Runs${seconds}`, spec({ timeout: Duration.seconds(seconds) }));
    const template = Template.fromStack(stack);
    const bounds = Object.values(template.findResources('AWS::Lambda::Function')).map((fn) => {
      const props = fn.Properties as { Timeout: number; Environment: { Variables: Record<string, string> } };
      return [props.Timeout, Number(props.Environment.Variables[ENV.sdkAttemptTimeoutMs])];
    });
    expect(bounds.sort(([a], [b]) => a! - b!)).toEqual([
      [10, 2_250],
      [25, 6_000],
      [30, 7_250],
      [900, 20_000],
    ]);
    for (const [timeout, attempt] of bounds) expect(SDK_ATTEMPTS * attempt! + 1_000).toBeLessThanOrEqual(timeout! * 1_000);
  });
});
