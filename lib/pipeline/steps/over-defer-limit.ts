import type { Decision } from '../decision.ts';
import { deferLimitMessage, exceedsDeferLimit } from '../../workflows/defer-limit.ts';
import { DETAILS, detail } from '../details.ts';

/**
 * A delay or digest whose wait (from now until `until`) is longer than the maximum defer
 * duration fails with the reference's detail, and the steps after it are canceled; undefined
 * when the wait is within the limit.
 */
export function overDeferLimit(until: Date, now: Date): Decision | undefined {
  if (!exceedsDeferLimit(until.getTime() - now.getTime())) return undefined;
  return {
    status: 'failed',
    details: [detail(DETAILS.deferLimitExceeded, 'Failed', { raw: { errors: [deferLimitMessage()] } }, now)],
    job: { error: DETAILS.deferLimitExceeded },
    after: { kind: 'end', rest: 'canceled', detail: DETAILS.canceledAfterFailure },
  };
}
