import { stepFiltersPass, skipRulePasses, type ConditionVariables } from '../step-conditions.ts';
import { isChannelStep } from '../build-notification.ts';
import { next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import { decideCustom } from './custom.ts';
import { decideDelay } from './delay.ts';
import { decideDigest } from './digest.ts';
import { channelGate } from './gates.ts';
import { decideInApp } from './in-app.ts';
import { decideSend } from './send.ts';
import { decideThrottle } from './throttle.ts';

// One job's decision: the step's conditions first, then, for channel steps, preferences and the
// subscriber's schedule, then what the step's kind does.

export async function decideStep(context: JobContext): Promise<Decision> {
  const { step, job, now } = context;
  const variables = context.variables as ConditionVariables;
  const passes = stepFiltersPass(step.filters, variables) && skipRulePasses(step.controlValues.skip, variables);
  // A step resumed after its wait (delay, digest) was already checked when it started.
  if (!passes && job.status !== 'delayed') {
    const raw = { filters: step.filters ?? [], skip: step.controlValues.skip ?? null };
    return isChannelStep(step.type)
      ? { status: 'canceled', details: [detail(DETAILS.conditionsSkipped, 'Failed', { raw }, now)], after: next }
      : { status: 'skipped', details: [detail(DETAILS.conditionsSkipped, 'Success', { raw }, now)], after: next };
  }

  if (isChannelStep(step.type)) {
    const blocked = channelGate(context);
    if (blocked) return blocked;
    return step.type === 'in_app' ? decideInApp(context) : decideSend(context);
  }
  switch (step.type) {
    case 'digest':
      return decideDigest(context);
    case 'delay':
      return decideDelay(context);
    case 'throttle':
      return decideThrottle(context);
    default:
      return decideCustom(context);
  }
}
