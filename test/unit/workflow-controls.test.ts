import { describe, expect, it } from 'vitest';
import { CONTROL_SCHEMAS, controlsDataSchema } from '#lib/workflows/controls.ts';
import { STEP_TYPES, type StepType } from '#lib/workflows/model.ts';

// Control values per kind (the API's control objects): what is refused, and the JSON Schema shown.

function errors(type: StepType, values: unknown): Record<string, string[]> {
  const result = CONTROL_SCHEMAS[type].safeParse(values);
  if (result.success) return {};
  const out: Record<string, string[]> = {};
  for (const issue of result.error.issues) (out[issue.path.join('.')] ??= []).push(issue.message);
  return out;
}

describe('control values', () => {
  it('in-app: body or subject required; avatar and redirect URLs, paths or variables', () => {
    expect(errors('in_app', {})).toHaveProperty('body');
    expect(errors('in_app', { subject: 's' })).toEqual({});
    expect(errors('in_app', { body: 'b' })).toEqual({});
    for (const avatar of ['https://x.io/a.png', '/a.png', '{{ subscriber.avatar }}']) {
      expect(errors('in_app', { body: 'b', avatar })).toEqual({});
    }
    expect(errors('in_app', { body: 'b', avatar: 'a.png' })).toHaveProperty('avatar');
    expect(errors('in_app', { body: 'b', redirect: { url: 'nope', target: '_blank' } })).toHaveProperty(['redirect.url']);
    expect(errors('in_app', { body: 'b', primaryAction: { label: 'Go', redirect: { target: '_nowhere' } } })).toHaveProperty([
      'primaryAction.redirect.target',
    ]);
  });

  it('email: subject and body required; editorType block or html; layoutId may be null', () => {
    expect(Object.keys(errors('email', {})).sort()).toEqual(['body', 'subject']);
    expect(errors('email', { subject: 's', body: 'b', editorType: 'html', layoutId: null })).toEqual({});
    expect(errors('email', { subject: 's', body: 'b', editorType: 'markdown' })).toHaveProperty('editorType');
  });

  it('email: a block body is a document the renderer draws; editorType block needs one', () => {
    const valid = JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hi' }] }] });
    expect(errors('email', { subject: 's', body: valid, editorType: 'block' })).toEqual({});
    expect(errors('email', { subject: 's', body: '', editorType: 'block' })).toEqual({});
    // The reference decides by the body when it renders: a document under editorType html is still one.
    expect(errors('email', { subject: 's', body: valid, editorType: 'html' })).toEqual({});
    expect(errors('email', { subject: 's', body: '<p>Hi</p>', editorType: 'block' })).toEqual({
      body: ['body must be a block-editor document (JSON of type "doc") when editorType is block'],
    });
    expect(errors('email', { subject: 's', body: '{"type":"doc","content":[{"type":"video"}]}' })).toEqual({
      body: ['body is not a valid block-editor document: Node type "video" is not supported at content[0]'],
    });
    expect(errors('email', { subject: 's', body: '{"type":"doc", oops', editorType: 'block' })).toHaveProperty('body');
  });

  it('digest: amount at least 1, known units, cron non-empty and parseable', () => {
    expect(errors('digest', { amount: 1, unit: 'days' })).toEqual({});
    expect(errors('digest', { amount: 0 })).toHaveProperty('amount');
    expect(errors('digest', { unit: 'fortnights' })).toHaveProperty('unit');
    expect(errors('digest', { type: 'timed', cron: '0 9 * * 1' })).toEqual({});
    expect(errors('digest', { cron: '' })).toEqual({ cron: ['cron must not be empty'] });
    expect(errors('digest', { cron: 'every monday' })).toEqual({ cron: ['cron must be a valid cron expression'] });
    expect(errors('digest', { lookBackWindow: { amount: 0, unit: 'minutes' } })).toHaveProperty(['lookBackWindow.amount']);
  });

  it('delay: positive amount, known units, parseable cron', () => {
    expect(errors('delay', { amount: 5, unit: 'seconds' })).toEqual({});
    expect(errors('delay', { amount: -1 })).toHaveProperty('amount');
    expect(errors('delay', { type: 'timed', cron: 'x' })).toHaveProperty('cron');
    for (const cron of ['*/10 * * * * *', '0 9 ? * MON-FRI', '0 0 L * *', '5/15 * * * *', '@daily', '@weekdays']) {
      expect(errors('delay', { type: 'timed', cron })).toEqual({});
    }
    // Too few or too many fields, or a date that never comes.
    for (const cron of ['* * * *', '0 0 0 1 1 * 2030', '0 9 31 2 *']) expect(errors('delay', { cron })).toHaveProperty('cron');
  });

  it('throttle: threshold at least 1, window units minutes to days', () => {
    expect(errors('throttle', { type: 'fixed', amount: 1, unit: 'hours', threshold: 3 })).toEqual({});
    expect(errors('throttle', { threshold: 0 })).toHaveProperty('threshold');
    expect(errors('throttle', { unit: 'seconds' })).toHaveProperty('unit');
  });

  it('sms, chat, push: optional strings; custom: anything', () => {
    expect(errors('sms', { body: 1 })).toHaveProperty('body');
    expect(errors('chat', {})).toEqual({});
    expect(errors('push', { subject: 's', body: 'b' })).toEqual({});
    expect(CONTROL_SCHEMAS.custom.parse({ custom: { a: 1 }, extra: true })).toEqual({ custom: { a: 1 }, extra: true });
  });

  it('skip is a JSON-logic object on every kind but custom', () => {
    expect(errors('sms', { skip: { '==': [{ var: 'payload.x' }, 1] } })).toEqual({});
    expect(errors('sms', { skip: 'yes' })).toHaveProperty('skip');
  });

  it('publishes each kind as JSON Schema generated from its zod schema', () => {
    for (const type of STEP_TYPES) expect(controlsDataSchema(type).type).toBe('object');
    const email = controlsDataSchema('email');
    expect(email.required).toEqual(['subject', 'body']);
    expect(email).not.toHaveProperty('$schema');
    expect((controlsDataSchema('digest').properties as any).amount).toEqual({ type: 'number', minimum: 1 });
    expect((controlsDataSchema('delay').properties as any).unit.enum).toEqual(['seconds', 'minutes', 'hours', 'days', 'weeks', 'months']);
  });
});
