import { next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';

// A custom step carries the author's own values; there is no code of the author's to run here,
// so it records its values and the chain goes on.

export function decideCustom(context: JobContext): Decision {
  return {
    status: 'completed',
    details: [detail(DETAILS.customExecuted, 'Success', { raw: context.step.controlValues }, context.now)],
    after: next,
  };
}
