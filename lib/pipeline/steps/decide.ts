import type { StepType } from '../../workflows/model.ts';
import {
  filtersNameEarlierSteps,
  loadStepFilters,
  ruleNamesSteps,
  skipRulePasses,
  stepFiltersPass,
  type ConditionVariables,
} from '../../workflows/step-conditions.ts';
import { isChannelStep } from '../build-notification.ts';
import { next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import { earlierEngagement } from '../engagement.ts';
import { translateStep } from '../translate-step.ts';
import { runBridgeStep } from './bridge.ts';
import { channelGate } from './gates.ts';

// One job's decision: the step's conditions first, then, for channel steps, preferences and the
// subscriber's schedule, then what the step's kind does (a channel step's content translated
// first: translate-step.ts). A consumer builds its decider from the kinds it runs, so one that
// runs only in-app steps does not load the providers' code.

export type StepDeciders = Partial<Record<StepType, (context: JobContext) => Decision | Promise<Decision>>>;
export type DecideStep = (context: JobContext) => Promise<Decision>;

export function stepDecider(deciders: StepDeciders): DecideStep {
  return async (context) => {
    const { step, job, now } = context;
    const [variables] = await Promise.all([conditionVariables(context), loadStepFilters(step.filters)]);
    const passes = stepFiltersPass(step.filters, variables) && skipRulePasses(step.controlValues.skip, variables);
    // A step resumed after its wait (delay, digest) was already checked when it started.
    if (!passes && job.status !== 'delayed') {
      const raw = { filters: step.filters ?? [], skip: step.controlValues.skip ?? null };
      return isChannelStep(step.type)
        ? { status: 'canceled', details: [detail(DETAILS.conditionsSkipped, 'Failed', { raw }, now)], after: next }
        : { status: 'skipped', details: [detail(DETAILS.conditionsSkipped, 'Success', { raw }, now)], after: next };
    }
    const blocked = isChannelStep(step.type) ? channelGate(context) : undefined;
    if (blocked) return blocked;
    const decide = deciders[step.type];
    if (!decide) throw new Error(`This consumer does not run ${step.type} steps`);
    // A code-first step: its content comes from the bridge, then its kind decides as any step's.
    if (step.bridge && context.workflow.origin === 'external') {
      const bridged = await runBridgeStep(context);
      if (bridged.kind === 'done') return bridged.decision;
      const decision = await decide(bridged.context);
      return {
        ...decision,
        details: [...bridged.details, ...decision.details],
        ...(Object.keys(bridged.job).length > 0 && { job: { ...decision.job, ...bridged.job } }),
      };
    }
    if (!isChannelStep(step.type)) return decide(context);
    const translated = await translateStep(context);
    const decision = await decide(translated.context);
    return translated.details.length === 0 ? decision : { ...decision, details: [...translated.details, ...decision.details] };
  };
}

/**
 * The variables the step's conditions see: the template variables, and, when a condition names an
 * earlier step (a `previousStep` filter, a `steps.` variable in `skip`), what the subscriber did
 * with that step's message (`steps.<stepId>.read`, `.seen`, `.opened`, `.clicked`, `.delivered`),
 * read when this step runs. Other steps read nothing more.
 */
async function conditionVariables(context: JobContext): Promise<ConditionVariables> {
  const { step, scope, notification, job } = context;
  const variables = context.variables as ConditionVariables;
  if (job.status === 'delayed' || !(filtersNameEarlierSteps(step.filters) || ruleNamesSteps(step.controlValues.skip))) return variables;
  const engagement = await earlierEngagement(scope, notification, job);
  const steps = { ...((variables.steps ?? {}) as Record<string, Record<string, unknown>>) };
  for (const [id, value] of Object.entries(engagement)) steps[id] = { ...steps[id], ...value };
  return { ...variables, steps };
}
