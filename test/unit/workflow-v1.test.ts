import { beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '#lib/errors.ts';
import { buildSteps } from '#lib/workflows/build.ts';
import type { V1MetadataInput, V1StepInput } from '#lib/workflows/v1-schemas.ts';
import { readV1Steps } from '#lib/workflows/v1-steps.ts';
import { timedDigestCron } from '#lib/workflows/v1-timed-digest.ts';
import { toV1Workflow } from '#lib/workflows/v1-view.ts';
import { stepVariables } from '#lib/workflows/variables.ts';
import { isAllowedVariable } from '#lib/workflows/variables.ts';
import { workflow } from '../support/workflow-builder.ts';
import { loadTemplates } from '#lib/workflows/templates.ts';

// The template engine is a lazy package (lib/workflows/templates.ts): loaded before the synchronous calls.
beforeAll(() => loadTemplates());

// v1 steps to the stored model and back (v1-steps.ts, v1-view.ts), and v1 timed digests as cron.

const v1Step = (step: Partial<V1StepInput> & { template: V1StepInput['template'] }): V1StepInput => step as V1StepInput;

function refusal(run: () => unknown): Record<string, { messages: string[] }> {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.details.errors!;
    throw error;
  }
  throw new Error('expected a 422');
}

describe('v1 timed digests as cron', () => {
  const timed = (m: V1MetadataInput) => timedDigestCron({ type: 'timed', ...m });
  it.each<[V1MetadataInput, string]>([
    [{ unit: 'days', timed: { atTime: '09:30' } }, '30 9 * * *'],
    [{ unit: 'days', amount: 1, timed: { atTime: '18:00:15', weekDays: ['monday', 'tuesday'] } }, '15 0 18 * * MON,TUE'],
    [{ unit: 'weeks', timed: { atTime: '08:05', weekDays: ['sunday'] } }, '5 8 * * SUN'],
    [{ unit: 'months', timed: { atTime: '07:00', monthDays: [15, 1, 15] } }, '0 7 1,15 * *'],
    [{ unit: 'months', timed: { atTime: '07:00', monthlyType: 'on', ordinal: 'last', ordinalValue: 'day' } }, '0 7 L * *'],
    [{ unit: 'months', timed: { atTime: '07:00', monthlyType: 'on', ordinal: '2', ordinalValue: 'friday' } }, '0 7 * * FRI#2'],
  ])('%j → %s', (metadata, cron) => {
    expect(timed(metadata)).toEqual({ cron });
  });

  it.each<[V1MetadataInput, string]>([
    [{ unit: 'minutes', timed: { atTime: '09:00' } }, 'metadata.unit'],
    [{ unit: 'weeks', amount: 2, timed: { atTime: '09:00', weekDays: ['monday'] } }, 'metadata.amount'],
    [{ unit: 'days', timed: {} }, 'metadata.timed.atTime'],
    [{ unit: 'days', timed: { atTime: '25:00' } }, 'metadata.timed.atTime'],
    [{ unit: 'weeks', timed: { atTime: '09:00' } }, 'metadata.timed.weekDays'],
    [{ unit: 'months', timed: { atTime: '09:00' } }, 'metadata.timed.monthDays'],
    [{ unit: 'months', timed: { atTime: '09:00', weekDays: ['monday'], monthDays: [1] } }, 'metadata.timed.weekDays'],
    [
      { unit: 'months', timed: { atTime: '09:00', monthlyType: 'on', ordinal: '1', ordinalValue: 'weekend' } },
      'metadata.timed.ordinalValue',
    ],
  ])('refuses %j (no cron equivalent) at %s', (metadata, field) => {
    expect(timed(metadata)).toMatchObject({ field });
  });
});

describe('v1 steps in the stored model', () => {
  it('reads back in the v1 shape as they were sent', () => {
    const filters = [
      {
        isNegated: true,
        type: 'GROUP' as const,
        value: 'OR' as const,
        children: [{ on: 'subscriber' as const, field: 'locale', operator: 'IN' as const, value: 'en,de' }],
      },
    ];
    const sent: V1StepInput[] = [
      v1Step({
        name: 'Inbox',
        filters,
        template: {
          type: 'in_app',
          content: 'Hi {{name}}',
          subject: 'S',
          cta: {
            type: 'redirect',
            data: { url: '/x', target: '_blank' },
            action: {
              buttons: [
                { type: 'primary', content: 'Go', url: '/go' },
                { type: 'secondary', content: 'Later' },
              ],
            },
          },
        },
      }),
      v1Step({
        shouldStopOnFail: true,
        replyCallback: { active: true, url: 'https://r.example' },
        template: { type: 'email', subject: 'Mail', content: '<p>x</p>', senderName: 'Shop', layoutId: null },
      }),
      v1Step({ active: false, template: { type: 'sms', content: 'text' } }),
      v1Step({
        template: { type: 'digest' },
        metadata: { type: 'backoff', amount: 10, unit: 'minutes', backoffAmount: 2, backoffUnit: 'minutes', digestKey: 'k' },
      }),
      v1Step({ template: { type: 'delay' }, metadata: { type: 'regular', amount: 1, unit: 'hours' } }),
    ];
    const stored = workflow(buildSteps(readV1Steps(sent)), { origin: 'svc-cloud-v1' });
    expect(stored.steps.map((s) => [s.stepId, s.name, s.type])).toEqual([
      ['inbox', 'Inbox', 'in_app'],
      ['email', 'Email', 'email'],
      ['sms', 'SMS', 'sms'],
      ['digest', 'Digest', 'digest'],
      ['delay', 'Delay', 'delay'],
    ]);
    expect(stored.steps[1]!.controlValues).toEqual({
      subject: 'Mail',
      body: '<p>x</p>',
      editorType: 'html',
      layoutId: null,
      senderName: 'Shop',
    });

    const [inbox, mail, sms, digest, delay] = toV1Workflow(stored).steps;
    expect(inbox).toMatchObject({ active: true, shouldStopOnFail: false, filters, template: sent[0]!.template });
    expect(mail).toMatchObject({
      shouldStopOnFail: true,
      replyCallback: { active: true, url: 'https://r.example' },
      template: { subject: 'Mail', content: '<p>x</p>', senderName: 'Shop', layoutId: null },
    });
    expect(sms).toMatchObject({ active: false, template: { type: 'sms', content: 'text' } });
    expect(digest!.metadata).toEqual({
      type: 'regular',
      amount: 10,
      unit: 'minutes',
      digestKey: 'k',
      backoff: true,
      backoffAmount: 2,
      backoffUnit: 'minutes',
    });
    expect(delay!.metadata).toEqual({ type: 'regular', amount: 1, unit: 'hours' });
  });

  it('matches sent steps to stored ones by _templateId, and gives new steps stepIds of their own', () => {
    const first = buildSteps(
      readV1Steps([v1Step({ template: { type: 'sms', content: 'a' } }), v1Step({ template: { type: 'sms', content: 'b' } })]),
    );
    expect(first.map((s) => s.stepId)).toEqual(['sms', 'sms-2']);
    // The first is dropped; the second kept by id; a new sms step must not take the dropped one's id.
    const next = buildSteps(
      readV1Steps(
        [
          v1Step({ _templateId: first[1]!._id, template: { type: 'sms', content: 'b2' } }),
          v1Step({ template: { type: 'sms', content: 'c' } }),
        ],
        first,
      ),
      first,
    );
    expect(next[0]).toMatchObject({ _id: first[1]!._id, stepId: 'sms-2', controlValues: { body: 'b2' } });
    expect(next[1]!._id).not.toBe(first[0]!._id);
    expect(next[1]!.stepId).toBe('sms-3');
  });

  it('a v2 change keeps what only v1 sets; a v1 change replaces it', () => {
    const [stored] = buildSteps(
      readV1Steps([
        v1Step({
          active: false,
          shouldStopOnFail: true,
          filters: [{ isNegated: false, value: 'AND', children: [] }],
          template: { type: 'sms', content: 'a' },
        }),
      ]),
    );
    const v2 = buildSteps(
      [{ stepId: stored!.stepId, name: 'x', type: 'sms', controlValues: { body: 'b' }, templateReadings: [] }],
      [stored!],
    );
    expect(v2[0]).toMatchObject({ _id: stored!._id, active: false, shouldStopOnFail: true, filters: stored!.filters });
    const v1 = buildSteps(readV1Steps([v1Step({ _templateId: stored!._id, template: { type: 'sms', content: 'c' } })], [stored!]), [
      stored!,
    ]);
    expect(v1[0]).toMatchObject({ _id: stored!._id, active: true, shouldStopOnFail: false });
    expect(v1[0]).not.toHaveProperty('filters');
  });

  it('refuses what would not run as sent, naming the field', () => {
    expect(
      Object.keys(refusal(() => readV1Steps([v1Step({ template: { type: 'in_app', content: '{{#each items}}x{{/each}}' } })]))),
    ).toEqual(['steps.0.template.content']);
    expect(Object.keys(refusal(() => readV1Steps([v1Step({ template: { type: 'sms', content: '{{ name | nope }}' } })])))).toEqual([
      'steps.0.template.content',
    ]);
    expect(Object.keys(refusal(() => readV1Steps([v1Step({ template: { type: 'push', title: '{% if %}', content: 'x' } })])))).toEqual([
      'steps.0.template.title',
    ]);
    expect(
      Object.keys(
        refusal(() => readV1Steps([v1Step({ template: { type: 'digest' }, metadata: { backoff: true, amount: 1, unit: 'hours' } })])),
      ),
    ).toEqual(['steps.0.metadata.backoffAmount']);
    expect(Object.keys(refusal(() => readV1Steps([v1Step({ template: { type: 'delay' }, metadata: { type: 'timed' } })])))).toEqual([
      'steps.0.metadata.type',
    ]);
    expect(
      Object.keys(
        refusal(() =>
          readV1Steps([v1Step({ template: { type: 'in_app', content: 'x', actor: { type: 'system_custom', data: 'no url' } } })]),
        ),
      ),
    ).toEqual(['steps.0.template.actor.data']);
  });
});

describe('v1 templates name payload values at the top level', () => {
  it('is no issue in a v1 workflow, and one in a v2 workflow', () => {
    const steps = buildSteps(readV1Steps([v1Step({ template: { type: 'sms', content: '{{orderId}}' } })]));
    expect(isAllowedVariable(stepVariables(workflow(steps, { origin: 'svc-cloud-v1' }), 0), ['orderId'])).toBe(true);
    expect(isAllowedVariable(stepVariables(workflow(steps), 0), ['orderId'])).toBe(false);
    expect(toV1Workflow(workflow(steps, { origin: 'svc-cloud-v1' })).triggers[0]!.variables).toEqual([{ name: 'orderId' }]);
  });
});
