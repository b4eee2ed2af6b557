import { decideCustom } from './custom.ts';
import { stepDecider } from './decide.ts';
import { decideEngagementDelay } from './engagement-delay.ts';
import { decideDigest } from './digest.ts';
import { decideInApp } from './in-app.ts';
import { decideSend } from './send.ts';
import { decideThrottle } from './throttle.ts';

/** Every kind of step: the jobs consumer's decider. */
export const decideStep = stepDecider({
  in_app: decideInApp,
  email: decideSend,
  sms: decideSend,
  chat: decideSend,
  push: decideSend,
  digest: decideDigest,
  delay: decideEngagementDelay,
  throttle: decideThrottle,
  custom: decideCustom,
});
