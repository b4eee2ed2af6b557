import { describe, expect, it } from 'vitest';
import type { Channel } from '#lib/integrations/catalogue.ts';
import { stepIssues, workflowStatus } from '#lib/workflows/issues.ts';
import type { StoredWorkflow } from '#lib/workflows/model.ts';
import { step, workflow } from '../support/workflow-builder.ts';

// Each issue type, and the status the issues give.

const ALL: ReadonlySet<Channel> = new Set(['in_app', 'email', 'sms', 'chat', 'push']);
const issuesOf = (wf: StoredWorkflow, index = 0, channels = ALL, layouts: ReadonlySet<string> = new Set()) =>
  stepIssues(wf, index, channels, layouts);
const types = (wf: StoredWorkflow, index = 0) =>
  Object.fromEntries(Object.entries(issuesOf(wf, index).controls ?? {}).map(([field, list]) => [field, list.map((i) => i.issueType)]));

describe('MISSING_VALUE', () => {
  it('flags empty required controls of each kind', () => {
    expect(types(workflow([step('email', { subject: ' ', body: '' })]))).toEqual({ subject: ['MISSING_VALUE'], body: ['MISSING_VALUE'] });
    expect(types(workflow([step('in_app', { subject: '', body: '' })]))).toEqual({ body: ['MISSING_VALUE'] });
    expect(types(workflow([step('in_app', { subject: 'only a subject' })]))).toEqual({});
    expect(types(workflow([step('sms')]))).toEqual({ body: ['MISSING_VALUE'] });
    expect(types(workflow([step('chat', { body: '' })]))).toEqual({ body: ['MISSING_VALUE'] });
    expect(types(workflow([step('push', { body: 'b' })]))).toEqual({ subject: ['MISSING_VALUE'] });
    expect(types(workflow([step('digest', { amount: 1 })]))).toEqual({ unit: ['MISSING_VALUE'] });
    expect(types(workflow([step('digest', { type: 'timed' })]))).toEqual({ cron: ['MISSING_VALUE'] });
    expect(types(workflow([step('delay', { type: 'timed', cron: '* * * * *' })]))).toEqual({});
    expect(types(workflow([step('delay', {})]))).toEqual({ amount: ['MISSING_VALUE'], unit: ['MISSING_VALUE'] });
    expect(types(workflow([step('throttle', { type: 'dynamic' })]))).toEqual({ dynamicKey: ['MISSING_VALUE'] });
    expect(types(workflow([step('custom')]))).toEqual({});
  });

  it('flags an email step naming a layout the environment does not have; omitted and null name none', () => {
    const mail = (layoutId?: string | null) =>
      workflow([step('email', { subject: 's', body: 'b', ...(layoutId !== undefined && { layoutId }) })]);
    expect(issuesOf(mail('brand'), 0, ALL, new Set(['other'])).controls).toEqual({
      layoutId: [{ issueType: 'MISSING_VALUE', message: 'Layout brand not found in this environment' }],
    });
    expect(issuesOf(mail('brand'), 0, ALL, new Set(['brand'])).controls).toBeUndefined();
    expect(issuesOf(mail(null)).controls).toBeUndefined();
    expect(issuesOf(mail()).controls).toBeUndefined();
  });
});

describe('ILLEGAL_VARIABLE_IN_CONTROL_VALUE', () => {
  it('allows subscriber fields, any payload without a schema, and earlier steps', () => {
    const wf = workflow([
      step('digest', { amount: 1, unit: 'minutes' }, 'batch'),
      step('in_app', {
        body:
          '{{subscriber.firstName}} {{subscriber.data.plan}} {{payload.anything.deep}} ' +
          '{{steps.batch.events.size}} {{step.events[0].payload.x}}',
        primaryAction: { label: '{% for e in steps.batch.events %}{{ e.payload.title }}{% endfor %}' },
      }),
    ]);
    expect(issuesOf(wf, 1)).toEqual({});
  });

  it('flags unknown roots, unknown subscriber fields, later or unknown steps', () => {
    const wf = workflow([
      step(
        'in_app',
        { body: '{{ user.name }} {{ subscriber.nickname }} {{ steps.later.x }} {{ steps.nope.x }} {{ step.events }}' },
        'first',
      ),
      step('email', { subject: 's', body: 'b' }, 'later'),
    ]);
    const issues = issuesOf(wf).controls!.body!;
    expect(issues.map((i) => [i.issueType, i.variableName])).toEqual([
      ['ILLEGAL_VARIABLE_IN_CONTROL_VALUE', 'user.name'],
      ['ILLEGAL_VARIABLE_IN_CONTROL_VALUE', 'subscriber.nickname'],
      ['ILLEGAL_VARIABLE_IN_CONTROL_VALUE', 'steps.later.x'],
      ['ILLEGAL_VARIABLE_IN_CONTROL_VALUE', 'steps.nope.x'],
      ['ILLEGAL_VARIABLE_IN_CONTROL_VALUE', 'step.events'],
    ]);
  });

  it('with a payload schema, payload variables must exist in it', () => {
    const payloadSchema = {
      type: 'object',
      properties: {
        order: { type: 'object', properties: { id: { type: 'string' } } },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        meta: { type: 'object', additionalProperties: true },
      },
    };
    const ok = workflow(
      [step('sms', { body: '{{payload.order.id}} {{payload.items[0].name}} {{payload.items.size}} {{payload.meta.any}}' })],
      { payloadSchema },
    );
    expect(issuesOf(ok)).toEqual({});
    const bad = workflow([step('sms', { body: '{{payload.order.total}} {{payload.items[0].price}} {{payload.other}}' })], {
      payloadSchema,
    });
    expect(issuesOf(bad).controls!.body!.map((i) => i.variableName)).toEqual([
      'payload.order.total',
      'payload.items.0.price',
      'payload.other',
    ]);
  });

  it('reports a template that does not parse', () => {
    const wf = workflow([step('sms', { body: 'Hi {{ payload.name ' })]);
    expect(types(wf)).toEqual({ body: ['ILLEGAL_VARIABLE_IN_CONTROL_VALUE'] });
  });

  it('does not read the JSON-logic skip rule as a template', () => {
    expect(issuesOf(workflow([step('sms', { body: 'b', skip: { '==': ['{{ nope }}', 1] } })]))).toEqual({});
  });
});

describe('INVALID_FILTER_ARG_IN_VARIABLE', () => {
  it('flags an unknown Liquid filter, not the known ones', () => {
    expect(types(workflow([step('sms', { body: '{{ payload.name | shout }}' })]))).toEqual({ body: ['INVALID_FILTER_ARG_IN_VARIABLE'] });
    expect(issuesOf(workflow([step('sms', { body: '{{ payload.name | upcase | default: "x" }}' })]))).toEqual({});
  });
});

describe('MISSING_INTEGRATION', () => {
  it('flags channel steps without an active integration of their channel, not other kinds', () => {
    const wf = workflow([step('push', { subject: 's', body: 'b' }), step('delay', { amount: 1, unit: 'days' })]);
    expect(issuesOf(wf, 0, new Set(['email']))).toEqual({
      integration: { push: [{ issueType: 'MISSING_INTEGRATION', message: 'No active push integration in this environment' }] },
    });
    expect(issuesOf(wf, 1, new Set())).toEqual({});
    expect(issuesOf(wf, 0, new Set(['push']))).toEqual({});
  });
});

describe('workflowStatus', () => {
  it('is INACTIVE when off, ERROR on any issue, else ACTIVE', () => {
    const missing = { integration: { chat: [{ issueType: 'MISSING_INTEGRATION' as const, message: 'm' }] } };
    expect(workflowStatus(false, [missing])).toBe('INACTIVE');
    expect(workflowStatus(true, [{}, missing])).toBe('ERROR');
    expect(workflowStatus(true, [{}, {}])).toBe('ACTIVE');
  });
});

describe('TIER_LIMIT_EXCEEDED (the maximum defer duration)', () => {
  const over = ['TIER_LIMIT_EXCEEDED'];
  it('flags a delay or digest longer than 180 days (months of 30 days), not one of exactly 180, nor a dynamic delay', () => {
    expect(types(workflow([step('delay', { type: 'regular', amount: 181, unit: 'days' })]))).toEqual({ amount: over, unit: over });
    expect(types(workflow([step('digest', { amount: 26, unit: 'weeks' })]))).toEqual({ amount: over, unit: over });
    expect(types(workflow([step('digest', { amount: 180, unit: 'days' })]))).toEqual({});
    expect(types(workflow([step('delay', { type: 'regular', amount: 6, unit: 'months' })]))).toEqual({});
    // A dynamic delay's wait is known only when it runs (its amount and unit are not its wait).
    expect(
      Object.values(types(workflow([step('delay', { type: 'dynamic', dynamicKey: 'payload.at', amount: 400, unit: 'days' })]))).flat(),
    ).not.toContain('TIER_LIMIT_EXCEEDED');
  });

  it('flags a timed step whose cron occurrences are further apart than the limit, not a monthly one', () => {
    expect(types(workflow([step('digest', { type: 'timed', cron: '0 9 1 1 *' })]))).toEqual({ cron: over });
    expect(types(workflow([step('delay', { type: 'timed', cron: '0 9 1 * *' })]))).toEqual({});
  });

  it('follows the stage setting (MAX_DEFER_DAYS), and never checks a wait under a day', () => {
    process.env.MAX_DEFER_DAYS = '7';
    try {
      expect(types(workflow([step('delay', { type: 'regular', amount: 8, unit: 'days' })]))).toEqual({ amount: over, unit: over });
      expect(types(workflow([step('delay', { type: 'regular', amount: 1, unit: 'weeks' })]))).toEqual({});
      expect(issuesOf(workflow([step('digest', { amount: 2, unit: 'months' })])).controls?.amount?.[0]?.message).toBe(
        'The maximum delay allowed is 7 days. Please contact our support team to discuss extending this limit for your use case.',
      );
      process.env.MAX_DEFER_DAYS = '0.5';
      expect(types(workflow([step('delay', { type: 'regular', amount: 23, unit: 'hours' })]))).toEqual({});
    } finally {
      delete process.env.MAX_DEFER_DAYS;
    }
  });
});
