import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '#lib/ids.ts';
import { buildSteps, buildUserPreferences } from '#lib/workflows/build.ts';
import { DEFAULT_WORKFLOW_PREFERENCES } from '#lib/workflows/model.ts';
import { payloadExample } from '#lib/workflows/payload-example.ts';
import { decodeId, encodeId, slugify, workflowIdFromSlug, workflowSlug } from '#lib/workflows/slug.ts';
import { syncedContent } from '#lib/workflows/sync.ts';
import { loadTemplates, readSteps } from '#lib/workflows/templates.ts';
import { step, workflow } from '../support/workflow-builder.ts';

// The template engine is a lazy package (lib/workflows/templates.ts): loaded before the synchronous calls.
beforeAll(() => loadTemplates());

// The pure parts of the stored model: slugs, step matching, sync content, payload examples.

describe('slugs', () => {
  it('slugify the name and encode the id in 16 base62 characters that decode back', () => {
    expect(slugify('  Héllo, World!  ')).toBe('hello-world');
    const id = newId();
    expect(encodeId(id)).toHaveLength(16);
    expect(decodeId(encodeId(id))).toBe(id);
    const slug = workflowSlug('My Flow', id);
    expect(slug).toBe(`my-flow_wf_${encodeId(id)}`);
    expect(workflowIdFromSlug(slug)).toBe(id);
    expect(workflowIdFromSlug('my-flow')).toBeUndefined();
    expect(workflowIdFromSlug('x_wf_!!!!!!!!!!!!!!!!')).toBeUndefined();
  });
});

describe('buildSteps', () => {
  const input = (name: string, type: any, stepId?: string) => ({
    name,
    type,
    controlValues: {},
    templateReadings: [],
    ...(stepId && { stepId }),
  });

  it('keeps the database id of steps matched by stepId (default: slugified name) and drops the rest', () => {
    const existing = [step('in_app', {}, 'inbox'), step('email', {}, 'mail'), step('sms', {}, 'text')];
    const built = buildSteps([input('Text', 'sms'), input('Other name', 'in_app', 'inbox'), input('New', 'push')], existing);
    expect(built.map((s) => s.stepId)).toEqual(['text', 'inbox', 'new']);
    expect(built[0]!._id).toBe(existing[2]!._id);
    expect(built[1]!._id).toBe(existing[0]!._id);
    expect(existing.map((s) => s._id)).not.toContain(built[2]!._id);
    expect(built[1]!.slug).toMatch(/^other-name_st_/);
  });

  it('matches by _id when the stepId is new, and gives a step that changes kind a new id', () => {
    const existing = [step('in_app', {}, 'inbox'), step('email', {}, 'mail')];
    const built = buildSteps([{ ...input('Renamed', 'in_app'), _id: existing[0]!._id }, input('Mail', 'sms')], existing);
    expect(built[0]!._id).toBe(existing[0]!._id);
    expect(built[1]!._id).not.toBe(existing[1]!._id);
  });

  it('refuses duplicate stepIds', () => {
    let error: any;
    try {
      buildSteps([input('A', 'sms'), input('a', 'email')]);
    } catch (e) {
      error = e;
    }
    expect(error.status).toBe(422);
    expect(error.details.errors['steps.1.stepId'].messages[0]).toMatch(/stepId a is already used by step 0/);
  });
});

describe('readSteps', () => {
  it('reads what the Liquid of each control value names, or why it does not parse; buildSteps stores it', () => {
    const controlValues = {
      subject: 'plain text',
      body: 'Hi {{ subscriber.firstName }}: {{ payload.items[0].name }}',
      primaryAction: { label: '{{ payload.x | nope }}', redirect: { url: '{% if %}' } },
      skip: { '==': ['{{ payload.y }}', 1] },
    };
    const read = readSteps([{ name: 'Inbox', type: 'in_app', controlValues }]);
    expect(read[0]!.templateReadings).toEqual([
      {
        field: 'body',
        ok: true,
        variables: [
          ['subscriber', 'firstName'],
          ['payload', 'items', 0, 'name'],
        ],
      },
      { field: 'primaryAction.label', ok: false, kind: 'filter', message: expect.stringMatching(/^undefined filter: nope/) },
      { field: 'primaryAction.redirect.url', ok: false, kind: 'syntax', message: expect.any(String) },
    ]);
    expect(buildSteps(read)[0]!.templateReadings).toEqual(read[0]!.templateReadings);
  });
});

describe('buildUserPreferences', () => {
  it('completes the author settings from the defaults; null stays null', () => {
    expect(buildUserPreferences(null)).toBeNull();
    expect(buildUserPreferences({ all: { readOnly: true }, channels: { sms: { enabled: false } } })).toEqual({
      all: { enabled: true, readOnly: true },
      channels: { ...DEFAULT_WORKFLOW_PREFERENCES.channels, sms: { enabled: false } },
    });
  });
});

describe('sync of an existing target', () => {
  it('updates matched steps in place and removes steps only the target has', () => {
    const source = workflow(
      [step('in_app', { body: 'new {{ payload.x }}' }, 'inbox'), step('digest', { amount: 3, unit: 'days' }, 'batch')],
      {
        name: 'Source',
        tags: ['x'],
      },
    );
    const target = [
      step('in_app', { body: 'old' }, 'inbox'),
      step('email', { subject: 's', body: 'b' }, 'mail'),
      step('digest', {}, 'batch'),
    ];
    const content = syncedContent(source);
    expect(content).toMatchObject({ name: 'Source', tags: ['x'], active: true, severity: 'none', payloadSchema: null });
    const steps = buildSteps(content.steps, target);
    expect(steps.map((s) => [s.stepId, s._id, s.controlValues])).toEqual([
      ['inbox', target[0]!._id, { body: 'new {{ payload.x }}' }],
      ['batch', target[2]!._id, { amount: 3, unit: 'days' }],
    ]);
    // The source's template readings come along: sync parses nothing.
    expect(steps[0]!.templateReadings).toEqual([{ field: 'body', ok: true, variables: [['payload', 'x']] }]);
    // The copy does not share objects with the source.
    (steps[0]!.controlValues as any).body = 'changed';
    expect(source.steps[0]!.controlValues.body).toBe('new {{ payload.x }}');
  });
});

describe('payloadExample', () => {
  it('follows the payload schema: defaults, examples, enums, then placeholders', () => {
    const payloadSchema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        plan: { type: 'string', enum: ['pro', 'free'] },
        count: { type: 'integer', default: 3 },
        ok: { type: 'boolean' },
        items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string', examples: ['i-1'] } } } },
      },
    };
    expect(payloadExample(workflow([], { payloadSchema }))).toEqual({
      name: '{{payload.name}}',
      plan: 'pro',
      count: 3,
      ok: false,
      items: [{ id: 'i-1' }],
    });
  });

  it('without a schema, is built from the payload variables the templates use, or null', () => {
    expect(payloadExample(workflow([step('sms', { body: '{{payload.user.name}} {{payload.total}} {{subscriber.email}}' })]))).toEqual({
      user: { name: '{{payload.user.name}}' },
      total: '{{payload.total}}',
    });
    expect(payloadExample(workflow([step('sms', { body: 'plain' })]))).toBeNull();
  });
});
