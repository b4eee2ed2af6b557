import { describe, expect, it } from 'vitest';
import type { Channel } from '#lib/integrations/catalogue.ts';
import { toEmbeddedWorkflow } from '#lib/workflows/v1-view.ts';
import { toWorkflowListItem, toWorkflowResponse } from '#lib/workflows/view.ts';
import { workflowResponseSchema } from '#lib/workflows/schemas.ts';
import { step, workflow } from '../support/workflow-builder.ts';

// The two views of one stored workflow: the v2 response and the v1 shape messages embed.

const stored = workflow(
  [
    step('in_app', { subject: 'Hi {{subscriber.firstName}}', body: 'You have {{payload.count}} items', avatar: '/a.png' }, 'inbox'),
    step('digest', { amount: 10, unit: 'minutes', lookBackWindow: { amount: 5, unit: 'minutes' }, digestKey: 'payload.key' }, 'batch'),
    step('delay', { type: 'timed', cron: '0 9 * * *' }, 'wait'),
    step('email', { subject: 'Summary', body: '{{step.events.size}} events' }, 'mail'),
  ],
  {
    name: 'Digest Flow',
    description: 'Sums up',
    tags: ['t'],
    payloadSchema: { type: 'object', properties: { count: { type: 'number' }, key: { type: 'string' } } },
    userPreferences: { all: { enabled: true, readOnly: true }, channels: { email: { enabled: false } } },
    updatedBy: { _id: 'user-1' },
  },
);
const everyChannel: ReadonlySet<Channel> = new Set(['in_app', 'email', 'sms', 'chat', 'push']);

describe('v2 view', () => {
  it('matches the documented response schema and shows controls, variables and status', () => {
    const view = toWorkflowResponse(stored, { activeChannels: everyChannel, layouts: new Set() });
    expect(workflowResponseSchema.safeParse(view).success).toBe(true);
    expect(view.status).toBe('ACTIVE');
    expect(view.critical).toBe(true);
    expect(view.steps[3]!.controls.uiSchema).toMatchObject({ group: 'EMAIL', properties: { body: { component: 'EMAIL_BODY' } } });
    expect(Object.keys((view.steps[3]!.variables.properties as any).steps.properties)).toEqual(['inbox', 'batch', 'wait']);
    expect(view.payloadExample).toEqual({ count: 0, key: '{{payload.key}}' });

    const withoutEmail = toWorkflowResponse(stored, { activeChannels: new Set(['in_app']), layouts: new Set() });
    expect(withoutEmail.status).toBe('ERROR');
    expect(toWorkflowListItem(stored, { activeChannels: everyChannel, layouts: new Set() }).stepTypeOverviews).toEqual([
      'in_app',
      'digest',
      'delay',
      'email',
    ]);
  });
});

describe('v1 view (Workflow embedded in a Message)', () => {
  it('shows triggers, steps with filters, metadata and templates', () => {
    const v1 = toEmbeddedWorkflow(stored);
    expect(v1).toMatchObject({
      _id: stored._id,
      name: 'Digest Flow',
      description: 'Sums up',
      active: true,
      draft: false,
      critical: true,
      tags: ['t'],
      preferenceSettings: { email: false, sms: true, in_app: true, chat: true, push: true },
      _organizationId: 'org',
      _environmentId: 'env',
      _creatorId: 'user-1',
      deleted: false,
    });
    expect(v1.triggers).toEqual([
      {
        type: 'event',
        identifier: 'wf',
        variables: [{ name: 'count' }, { name: 'key' }],
        subscriberVariables: [{ name: 'firstName' }],
      },
    ]);
    const [inbox, batch, wait, mail] = v1.steps;
    expect(inbox).toMatchObject({
      _id: stored.steps[0]!._id,
      uuid: 'inbox',
      _templateId: stored.steps[0]!._id,
      active: true,
      shouldStopOnFail: false,
      filters: [],
      _parentId: null,
      template: { type: 'in_app', subject: 'Hi {{subscriber.firstName}}', content: 'You have {{payload.count}} items', avatar: '/a.png' },
      variants: [],
    });
    expect(inbox).not.toHaveProperty('metadata');
    expect(batch!.metadata).toEqual({
      type: 'regular',
      amount: 10,
      unit: 'minutes',
      digestKey: 'payload.key',
      backoff: true,
      backoffAmount: 5,
      backoffUnit: 'minutes',
    });
    expect(batch!._parentId).toBe(stored.steps[0]!._id);
    expect(wait!.metadata).toEqual({ type: 'timed', cronExpression: '0 9 * * *' });
    expect(mail!.template).toMatchObject({ type: 'email', subject: 'Summary' });
  });

  it('keeps the filters of older steps and shows an inactive workflow as a draft', () => {
    const filters = [
      {
        isNegated: false,
        type: 'GROUP' as const,
        value: 'AND' as const,
        children: [{ field: 'x', value: '1', operator: 'EQUAL' as const, on: 'payload' as const }],
      },
    ];
    const v1 = toEmbeddedWorkflow(
      workflow([{ ...step('sms', { body: 'b' }), filters, shouldStopOnFail: true }], { active: false, origin: 'svc-cloud-v1' }),
    );
    expect(v1).toMatchObject({ active: false, draft: true, critical: false });
    expect(v1.steps[0]).toMatchObject({ filters, shouldStopOnFail: true });
  });
});
