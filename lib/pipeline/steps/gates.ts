import type { Channel } from '../../integrations/catalogue.ts';
import { decideChannel, layersOf, workflowEnabled } from '../../preferences/merge.ts';
import { next, type Decision, type JobContext } from '../decision.ts';
import { DETAILS, detail } from '../details.ts';
import { withinSchedule } from '../schedule.ts';

// Whether a channel step may deliver: the subscriber's preferences (the same merge the
// preferences endpoints show, and the subscriber's switch of the whole workflow; critical
// workflows ignore the subscriber's layers) and the
// subscriber's schedule (in-app and critical workflows are exempt). Undefined = go ahead.

export function channelGate(context: JobContext): Decision | undefined {
  const { notification, step, workflow, choices, now } = context;
  const channel = step.type as Channel;
  const layers = layersOf(workflow, choices);
  if (!workflowEnabled(layers, notification.critical)) {
    const globallyOff = layers.subscriberGlobalEnabled === false;
    const raw = { channel, enabled: false, source: 'subscriber', ...(globallyOff ? { globalEnabled: false } : { workflowEnabled: false }) };
    const text = globallyOff ? DETAILS.filteredSubscriberGlobal : DETAILS.filteredSubscriberWorkflow;
    return { status: 'canceled', details: [detail(text, 'Success', { raw }, now)], after: next };
  }
  const decision = decideChannel(layers, channel, notification.critical);
  if (!decision.enabled) {
    const text =
      decision.source === 'template'
        ? DETAILS.filteredWorkflow
        : choices.workflows.get(workflow._id)?.channels[channel] !== undefined
          ? DETAILS.filteredSubscriberWorkflow
          : DETAILS.filteredSubscriberGlobal;
    return { status: 'canceled', details: [detail(text, 'Success', { raw: { channel, ...decision } }, now)], after: next };
  }
  if (channel !== 'in_app' && !notification.critical) {
    const schedule = choices.global?.schedule;
    if (!withinSchedule(schedule, context.subscriber?.timezone, now)) {
      return { status: 'canceled', details: [detail(DETAILS.outsideSchedule, 'Success', { raw: schedule }, now)], after: next };
    }
  }
  return undefined;
}
