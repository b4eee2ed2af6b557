import { beforeAll, describe, expect, it } from 'vitest';
import type { StepFilter } from '#lib/integrations/schemas.ts';
import { countsOf, engagementChanges } from '#lib/engagement/transitions.ts';
import { engagementOf, type EngagedMessage } from '#lib/pipeline/engagement.ts';
import { stepIssues } from '#lib/workflows/issues.ts';
import { skipRulePasses, stepFiltersPass, type ConditionVariables } from '#lib/workflows/step-conditions.ts';
import { step, workflow } from '../support/workflow-builder.ts';
import { loadTemplates } from '#lib/workflows/templates.ts';

// The template engine is a lazy package (lib/workflows/templates.ts): loaded before the synchronous calls.
beforeAll(() => loadTemplates());

// Steps that depend on engagement, over message items alone: what an earlier step's message says
// (seen, read, opened, clicked: the tracking attributes are absent until they happen), how the
// `previousStep` filter and a `skip` rule read it, and what each stored change of a message or a
// trigger counts (the stream's old and new images).

const message = (over: Partial<EngagedMessage> = {}): EngagedMessage =>
  ({
    _id: 'msg-1',
    channel: 'email',
    templateIdentifier: 'welcome',
    status: 'sent',
    seen: false,
    read: false,
    createdAt: '2026-11-02T10:00:00.000Z',
    updatedAt: '2026-11-02T10:00:00.000Z',
    ...over,
  }) as EngagedMessage;

describe('engagement of a message', () => {
  it('is nothing until it happens; opened and clicked are their times; a click implies an open and a delivery', () => {
    expect(engagementOf(message())).toEqual({ seen: false, read: false, opened: false, clicked: false, delivered: false });
    expect(engagementOf(message({ opened: '2026-11-02T10:05:00.000Z' }))).toMatchObject({ opened: true, clicked: false, delivered: true });
    expect(engagementOf(message({ clicked: '2026-11-02T10:06:00.000Z', clickCount: 2 }))).toMatchObject({ opened: true, clicked: true });
    expect(engagementOf(message({ deliveryStatus: 'delivered' }))).toMatchObject({ delivered: true, opened: false });
    // A provider that tracks opens itself says so in its receipt.
    expect(engagementOf(message({ deliveryStatus: 'opened' }))).toMatchObject({ opened: true });
    expect(engagementOf(message({ channel: 'in_app', seen: true, read: true }))).toMatchObject({ seen: true, read: true, delivered: true });
  });
});

const part = (step: string, stepType: string) => ({ on: 'previousStep', step, stepType }) as StepFilter['children'][number];
const filter = (...children: StepFilter['children']): StepFilter[] => [{ isNegated: false, type: 'GROUP', value: 'AND', children }];
const vars = (steps: Record<string, unknown>): ConditionVariables => ({ subscriber: {}, payload: {}, steps });
const engaged = (channel: string, over: Record<string, boolean> = {}) => ({
  messageId: 'm',
  channel,
  seen: false,
  read: false,
  opened: false,
  clicked: false,
  delivered: true,
  ...over,
});

describe('a step condition on an earlier step', () => {
  it('tests read, seen and their negations of an in-app message', () => {
    const unread = vars({ inbox: engaged('in_app') });
    const read = vars({ inbox: engaged('in_app', { read: true, seen: true }) });
    expect(stepFiltersPass(filter(part('inbox', 'read')), unread)).toBe(false);
    expect(stepFiltersPass(filter(part('inbox', 'read')), read)).toBe(true);
    expect(stepFiltersPass(filter(part('inbox', 'unread')), unread)).toBe(true);
    expect(stepFiltersPass(filter(part('inbox', 'unseen')), read)).toBe(false);
    expect(stepFiltersPass(filter(part('inbox', 'seen')), read)).toBe(true);
  });

  it('tests opened and clicked; for an email, read and seen mean opened (as the reference reads them)', () => {
    const opened = vars({ mail: engaged('email', { opened: true }) });
    const clicked = vars({ mail: engaged('email', { opened: true, clicked: true }) });
    const untouched = vars({ mail: engaged('email') });
    expect(stepFiltersPass(filter(part('mail', 'opened')), opened)).toBe(true);
    expect(stepFiltersPass(filter(part('mail', 'unopened')), untouched)).toBe(true);
    expect(stepFiltersPass(filter(part('mail', 'unopened')), opened)).toBe(false);
    expect(stepFiltersPass(filter(part('mail', 'clicked')), opened)).toBe(false);
    expect(stepFiltersPass(filter(part('mail', 'clicked')), clicked)).toBe(true);
    expect(stepFiltersPass(filter(part('mail', 'unclicked')), clicked)).toBe(false);
    expect(stepFiltersPass(filter(part('mail', 'read')), opened)).toBe(true);
    expect(stepFiltersPass(filter(part('mail', 'unseen')), untouched)).toBe(true);
  });

  it('passes when the earlier step made no message (skipped, or no such step), as in the reference', () => {
    expect(stepFiltersPass(filter(part('mail', 'opened')), vars({}))).toBe(true);
    // A digest's `steps.<id>` without a message is not an engagement.
    expect(stepFiltersPass(filter(part('digest', 'read')), vars({ digest: { events: [], eventCount: 0 } }))).toBe(true);
  });

  it('combines with field conditions and isNegated', () => {
    const children = [
      part('mail', 'unopened'),
      { on: 'payload', field: 'vip', operator: 'EQUAL', value: 'true' },
    ] as StepFilter['children'];
    const v = { ...vars({ mail: engaged('email') }), payload: { vip: true } };
    expect(stepFiltersPass(filter(...children), v)).toBe(true);
    expect(stepFiltersPass([{ isNegated: true, value: 'AND', children }], v)).toBe(false);
  });

  it('is a `steps.<stepId>` variable of a v2 skip rule', () => {
    const rule = { '!': { var: 'steps.mail.opened' } };
    expect(skipRulePasses(rule, vars({ mail: engaged('email') }))).toBe(true);
    expect(skipRulePasses(rule, vars({ mail: engaged('email', { opened: true }) }))).toBe(false);
    expect(skipRulePasses({ '==': [{ var: 'steps.inbox.read' }, true] }, vars({ inbox: engaged('in_app', { read: true }) }))).toBe(true);
  });
});

/** A stored change of a message item, its images as the stream gives them (with the item's `type`). */
const change = (before: EngagedMessage | undefined, after: EngagedMessage | undefined, expired = false) => ({
  sk: 'MSG#msg-1',
  ...(before && { before: { type: 'Message', ...before } as Record<string, unknown> }),
  ...(after && { after: { type: 'Message', ...after } as Record<string, unknown> }),
  expired,
});
const events = (c: ReturnType<typeof change>) => countsOf(c).map((count) => count.event);

describe('what a stored change counts', () => {
  it('counts a message made: sent (an in-app one delivered too), or failed', () => {
    expect(events(change(undefined, message()))).toEqual(['sent']);
    expect(events(change(undefined, message({ channel: 'in_app' })))).toEqual(['sent', 'delivered']);
    expect(events(change(undefined, message({ status: 'error' })))).toEqual(['failed']);
    // An in-app message's delivery is counted once, with its creation: the creation fact's marker stands for it.
    expect(countsOf(change(undefined, message({ channel: 'in_app' })))[1]).toMatchObject({ event: 'delivered', markedBy: 'sent' });
    expect(countsOf(change(undefined, message({ channel: 'in_app', status: 'error' }))).find((c) => c.event === 'delivered')).toMatchObject(
      {
        markedBy: 'failed',
      },
    );
    expect(countsOf(change(undefined, message()))[0]?.markedBy).toBeUndefined();
    expect(countsOf(change(undefined, message()))[0]).toMatchObject({
      itemId: 'msg-1',
      workflowId: 'welcome',
      channel: 'email',
      at: '2026-11-02T10:00:00.000Z',
    });
  });

  it('counts a fact when it turns true, on the day it happened', () => {
    const sent = message();
    const delivered = message({ deliveryStatus: 'delivered', deliveryStatusAt: '2026-11-02T10:01:00.000Z' });
    expect(events(change(sent, delivered))).toEqual(['delivered']);
    const opened = { ...delivered, opened: '2026-11-03T08:00:00.000Z' };
    expect(countsOf(change(delivered, opened))).toEqual([expect.objectContaining({ event: 'opened', at: '2026-11-03T08:00:00.000Z' })]);
    // A click without an open seen first (images blocked): opened and clicked at once.
    expect(events(change(delivered, { ...delivered, clicked: '2026-11-03T09:00:00.000Z', clickCount: 1 }))).toEqual(['opened', 'clicked']);
    // More clicks change nothing counted.
    const clicked = { ...opened, clicked: '2026-11-03T09:00:00.000Z', clickCount: 1 };
    expect(events(change(clicked, { ...clicked, clickCount: 2 }))).toEqual([]);
    const inApp = message({ channel: 'in_app' });
    expect(events(change(inApp, { ...inApp, seen: true, read: true, lastReadDate: '2026-11-04T00:00:00.000Z' }))).toEqual(['read']);
    expect(events(change(sent, { ...sent, status: 'error' }))).toEqual(['failed']);
  });

  it('counts nothing for removals, expiries, or changes that turn nothing true', () => {
    expect(countsOf(change(message(), undefined))).toEqual([]);
    expect(countsOf(change(message(), message(), true))).toEqual([]);
    const read = message({ channel: 'in_app', read: true, seen: true });
    expect(events(change(read, { ...read, read: false }))).toEqual([]);
    expect(countsOf({ sk: 'PREF#GLOBAL', after: {}, expired: false })).toEqual([]);
  });

  it('counts nothing, and wakes nothing, for an item under a message sort key that is not a message', () => {
    const other = { sk: 'MSG#1', before: { type: 'Test' }, after: { type: 'Test', seen: true }, expired: false };
    expect(countsOf({ ...other, before: undefined })).toEqual([]);
    expect(engagementChanges(other)).toBeUndefined();
  });

  it('counts a trigger when it is stored, once per transaction and time', () => {
    const trigger = { transactionId: 'tx-1', workflowId: 'welcome', createdAt: '2026-11-02T09:59:00.000Z' };
    expect(countsOf({ sk: 'EVENT', after: trigger, expired: false })).toEqual([
      expect.objectContaining({ event: 'triggered', workflowId: 'welcome', itemId: '2026-11-02T09:59:00.000Z#tx-1' }),
    ]);
    expect(countsOf({ sk: 'EVENT', before: trigger, after: { ...trigger, canceledAt: 'x' }, expired: false })).toEqual([]);
  });

  it('names the engagement a change makes true, for waking delays', () => {
    const inApp = message({ channel: 'in_app' });
    expect(engagementChanges(change(inApp, { ...inApp, seen: true }))?.events).toEqual(['seen']);
    expect(engagementChanges(change(inApp, { ...inApp, seen: true, read: true }))?.events).toEqual(['seen', 'read']);
    expect(engagementChanges(change(inApp, inApp))).toBeUndefined();
    expect(engagementChanges(change(undefined, inApp))).toBeUndefined();
  });
});

describe('a delay waiting for engagement, as an issue of its workflow', () => {
  const waiting = (stepId: string) => step('delay', { amount: 2, unit: 'hours', waitFor: { stepId, event: 'opened' } }, 'wait');
  const issuesOf = (steps: ReturnType<typeof step>[]) =>
    stepIssues(workflow(steps), steps.length - 1, new Set(['email', 'in_app']), new Set()).controls;

  it('has none when it names an earlier channel step', () => {
    expect(issuesOf([step('email', { subject: 's', body: 'b' }, 'mail'), waiting('mail')])).toBeUndefined();
  });

  it('flags a step that does not come before it, or is no channel step', () => {
    expect(issuesOf([step('email', { subject: 's', body: 'b' }, 'mail'), waiting('later')])).toEqual({
      waitFor: [{ issueType: 'MISSING_VALUE', message: 'waitFor.stepId must name an earlier channel step (later is none)' }],
    });
    expect(issuesOf([step('delay', { amount: 1, unit: 'hours' }, 'pause'), waiting('pause')])?.waitFor).toHaveLength(1);
  });
});
