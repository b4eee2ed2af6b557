import { BridgeCallError } from '../../bridge/call-result.ts';
import { callBridge } from '../../bridge/client.ts';
import { environmentType, signingKey } from '../../bridge/environment.ts';
import { deepMerge, objectOr } from '../../providers/deep-merge.ts';
import { getEnvironment } from '../../accounts/environments.ts';
import { isChannelStep } from '../build-notification.ts';
import { bridgeState } from '../bridge-state.ts';
import { afterFailure, next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import type { ExecutionDetail, StoredJob } from '../model.ts';

// A step of a code-first (`external`) workflow gets its content from the customer's bridge:
// `POST <bridge>?action=execute` with the payload, the step's stored control values, the state
// of every earlier step (bridge-state.ts), the subscriber and the context, signed with the
// environment's key (lib/bridge/). What the bridge returns then goes down the same path as a
// dashboard step's controls: the outputs become the step's control values, marked as already
// rendered, and the step's own kind decides with them: one sender, one sanitizer, the same
// layouts and waits. `options.skip` skips the step; an error answer fails it with the bridge's
// message, and nothing is sent. A delay or digest resumed after its wait reuses the outputs
// it was set from.

export type BridgeRun =
  { kind: 'run'; context: JobContext; details: ExecutionDetail[]; job: Partial<StoredJob> } | { kind: 'done'; decision: Decision };

interface ExecuteOutput {
  outputs?: Record<string, unknown>;
  providers?: Record<string, unknown>;
  options?: { skip?: boolean };
}

export async function runBridgeStep(context: JobContext): Promise<BridgeRun> {
  const { scope, notification, job, step, now } = context;
  if (job.status === 'delayed' && job.bridgeOutputs) {
    return { kind: 'run', context: withOutputs(context, job.bridgeOutputs, {}), details: [], job: {} };
  }
  const environment = await getEnvironment(scope.organizationId, scope.environmentId);
  const url = notification.bridgeUrl ?? environment?.bridge?.url;
  if (!url) return { kind: 'done', decision: failed(context, DETAILS.bridgeUrlMissing, {}) };

  let answer: Awaited<ReturnType<typeof callBridge>>;
  try {
    answer = await callBridge({
      url,
      action: 'execute',
      secretKey: await signingKey(scope),
      query: {
        workflowId: notification.templateIdentifier,
        stepId: step.stepId,
        jobId: job._id,
        environmentType: environmentType(environment?.name),
      },
      body: {
        payload: notification.payload,
        controls: step.controlValues,
        state: await bridgeState(scope, notification, job),
        subscriber: subscriberOf(context),
        context: notification.context ?? {},
      },
    });
  } catch (error) {
    if (!(error instanceof BridgeCallError)) throw error;
    const { status, code, data, durationMs, attempts } = error.outcome;
    return {
      kind: 'done',
      decision: failed(context, DETAILS.bridgeFailed(error.message), { status, code, data, duration: durationMs, attempts }),
    };
  }
  const output = objectOr(answer.body) as ExecuteOutput;
  const outputs = objectOr(output.outputs);
  const called = detail(
    DETAILS.bridgeExecuted,
    'Success',
    { raw: { status: answer.status, duration: answer.durationMs, attempts: answer.attempts } },
    now,
  );
  if (output.options?.skip === true) {
    return {
      kind: 'done',
      decision: { status: 'skipped', details: [called, detail(DETAILS.bridgeSkipped, 'Success', {}, now)], after: next },
    };
  }
  if (step.type === 'custom') {
    return {
      kind: 'done',
      decision: {
        status: 'completed',
        details: [called, detail(DETAILS.customExecuted, 'Success', { raw: outputs }, now)],
        job: { stepOutput: outputs },
        after: next,
      },
    };
  }
  const waits = step.type === 'digest' || step.type === 'delay';
  return {
    kind: 'run',
    context: withOutputs(context, outputs, objectOr(output.providers)),
    details: [called],
    job: waits ? { bridgeOutputs: outputs } : {},
  };
}

/** The context the step's own kind decides with: the bridge's outputs as its control values. */
function withOutputs(context: JobContext, outputs: Record<string, unknown>, providers: Record<string, unknown>): JobContext {
  const { step, notification } = context;
  let controlValues: Record<string, unknown> = outputs;
  if (step.type === 'digest' || step.type === 'delay') {
    // A cron makes the wait timed, as the dashboard's `type: 'timed'`.
    controlValues = { type: typeof outputs.cron === 'string' ? 'timed' : 'regular', ...outputs };
  }
  if (step.bridge?.disableOutputSanitization) controlValues = { ...controlValues, disableOutputSanitization: true };
  // The bridge's `providers` outputs are the step's overrides per provider (a trigger's own step overrides win).
  const overrides =
    Object.keys(providers).length === 0
      ? notification.overrides
      : deepMerge(notification.overrides, {
          steps: {
            [step.stepId]: {
              providers: deepMerge(providers, objectOr(objectOr(objectOr(notification.overrides.steps)[step.stepId]).providers)),
            },
          },
        });
  return {
    ...context,
    step: { ...step, controlValues },
    notification: { ...notification, overrides },
    verbatim: true,
  };
}

function failed(context: JobContext, text: string, raw: Record<string, unknown>): Decision {
  const { step, now } = context;
  return {
    status: 'failed',
    details: [detail(text, 'Failed', { raw }, now)],
    job: { error: text },
    after:
      isChannelStep(step.type) || step.type === 'custom'
        ? afterFailure(step)
        : { kind: 'end', rest: 'canceled', detail: DETAILS.canceledAfterFailure },
  };
}

/** The subscriber as the framework's Subscriber type has it. */
function subscriberOf(context: JobContext): Record<string, unknown> {
  const s = (context.subscriber ?? context.notification.subscriber) as unknown as Record<string, unknown>;
  const pick = ['subscriberId', 'firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'data'];
  return Object.fromEntries(pick.filter((key) => s[key] !== undefined && s[key] !== null).map((key) => [key, s[key]]));
}
