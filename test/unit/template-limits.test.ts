import { beforeAll, describe, expect, it } from 'vitest';
import {
  loadTemplates,
  TEMPLATE_PARSE_LIMIT,
  TEMPLATE_RENDER_LIMIT_MS,
  TemplateLimitError,
  evaluateExpression,
  readTemplates,
  renderHtmlTemplate,
  renderTemplate,
} from '#lib/workflows/templates.ts';

// The limits of the one Liquid module: each of the three (length, render time, what a render
// builds) stops a template that goes over it with a TemplateLimitError that says which, through
// every way a template is rendered, while ordinary templates render as before.

const error = (run: () => unknown): unknown => {
  try {
    run();
  } catch (e) {
    return e;
  }
  return undefined;
};

const items = Array.from({ length: 300 }, (_, i) => i);
const CUBED_LOOP =
  '{% for a in payload.items %}{% for b in payload.items %}{% for c in payload.items %}x{% endfor %}{% endfor %}{% endfor %}';

// The engine is a lazy package: loaded once, as every use case that renders does first.
beforeAll(() => loadTemplates());

describe('template limits', () => {
  it('stops a render that builds too much at once, in both engines and in an expression', () => {
    for (const run of [
      () => renderTemplate('{% for x in (1..100000000) %}x{% endfor %}', {}),
      () => renderHtmlTemplate('<p>{% for x in (1..100000000) %}x{% endfor %}</p>', {}),
      () =>
        renderTemplate('{{ payload.text | append: payload.text | append: payload.text }}', { payload: { text: 'x'.repeat(2_000_000) } }),
      () => evaluateExpression('(1..100000000)', {}),
    ]) {
      // The memory limit, not the time limit, stops it: before it has run long.
      const e = error(run);
      expect(e).toBeInstanceOf(TemplateLimitError);
      expect(e).toMatchObject({ limit: 'memory', message: expect.stringMatching(/^Template builds too much to render/) });
    }
  });

  // Unlimited, the 27 million iterations take tens of seconds; the limit's error says it stopped
  // them (no wall time is asserted: a test is no speed check).
  it('stops a render that runs too long', () => {
    const e = error(() => renderTemplate(CUBED_LOOP, { payload: { items } }));
    expect(e).toBeInstanceOf(TemplateLimitError);
    expect(e).toMatchObject({ limit: 'time', message: `Template took too long to render: over ${TEMPLATE_RENDER_LIMIT_MS} ms` });
  });

  it('refuses a template over the length limit, and reads it as an issue when it is saved', () => {
    const long = `{{ payload.name }}${'a'.repeat(TEMPLATE_PARSE_LIMIT)}`;
    expect(error(() => renderTemplate(long, {}))).toMatchObject({
      limit: 'length',
      message: `Template is too long: over ${TEMPLATE_PARSE_LIMIT} characters`,
    });
    expect(readTemplates({ body: long })).toEqual([
      { field: 'body', ok: false, kind: 'syntax', message: `Template is too long: over ${TEMPLATE_PARSE_LIMIT} characters` },
    ]);
  });

  it('leaves ordinary templates and other errors as they were', () => {
    expect(renderTemplate('{% for a in payload.items limit: 3 %}{{ a }},{% endfor %}', { payload: { items } })).toBe('0,1,2,');
    expect(renderTemplate('{% for x in (1..1000) %}x{% endfor %}', {})).toHaveLength(1000);
    expect(renderHtmlTemplate('<p>{{ payload.name }}</p>', { payload: { name: '<b>' } })).toBe('<p>&lt;b&gt;</p>');
    const other = error(() => renderTemplate('{{ payload.name | noSuchFilter }}', {}));
    expect(other).toBeInstanceOf(Error);
    expect(other).not.toBeInstanceOf(TemplateLimitError);
    expect((other as Error).message).toMatch(/undefined filter: noSuchFilter/);
  });
});
