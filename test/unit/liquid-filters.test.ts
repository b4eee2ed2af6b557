import { beforeAll, describe, expect, it } from 'vitest';
import { digest, pluralize, toSentence } from '#lib/workflows/liquid-filters.ts';
import { loadTemplates, readTemplates, renderHtmlTemplate, renderTemplate } from '#lib/workflows/templates.ts';

// The template engine is a lazy package (lib/workflows/templates.ts): loaded before the synchronous calls.
beforeAll(() => loadTemplates());

// The reference's custom Liquid filters, each with the edge cases of the reference's own tests,
// then as a template author writes them, through both engines of the one Liquid module.

describe('pluralize', () => {
  it('prints nothing for a missing, zero, negative or non-numeric count', () => {
    for (const value of [null, undefined, 0, -1, -10, '0', '-5', [], {}, false, NaN, 'invalid', '']) {
      expect(pluralize(value, 'item'), String(value)).toBe('');
    }
  });

  it('counts an array by its length, an object by its keys, a string or boolean as a number', () => {
    expect(pluralize(['a'], 'item')).toBe('1 item');
    expect(pluralize(['a', 'b', 'c'], 'item')).toBe('3 items');
    expect(pluralize({ a: 1 }, 'property')).toBe('1 property');
    expect(pluralize({ a: 1, b: 2 }, 'property')).toBe('2 properties');
    expect(pluralize('1', 'item')).toBe('1 item');
    expect(pluralize('10', 'item')).toBe('10 items');
    expect(pluralize(true, 'item')).toBe('1 item');
    expect(pluralize(1.5, 'apple')).toBe('1.5 apples');
    expect(pluralize(0.5, 'portion')).toBe('0.5 portions');
  });

  it('uses the given plural, else the English plural (irregular words too)', () => {
    expect(pluralize(1, 'child', 'children')).toBe('1 child');
    expect(pluralize(2, 'person', 'people')).toBe('2 people');
    expect(pluralize(2, 'berry')).toBe('2 berries');
    expect(pluralize(2, 'leaf')).toBe('2 leaves');
    expect(pluralize(2, 'child')).toBe('2 children');
    expect(pluralize(2, 'person', '')).toBe('2 people');
    expect(pluralize(1, 'apple')).toBe('1 apple');
  });

  it('prints the word alone when showCount is false', () => {
    expect(pluralize(1, 'item', '', 'false')).toBe('item');
    expect(pluralize(2, 'child', 'children', 'false')).toBe('children');
    expect(pluralize(2, 'apple', '', false)).toBe('apples');
    expect(pluralize(2, 'item', '', 'true')).toBe('2 items');
    expect(pluralize(0, 'item', '', 'false')).toBe('');
  });
});

describe('digest', () => {
  it('prints nothing for a non-list or an empty list', () => {
    expect(digest(null)).toBe('');
    expect(digest(undefined)).toBe('');
    expect(digest([])).toBe('');
    expect(digest('John')).toBe('');
  });

  it('joins one, two and three names, then shows maxNames and counts the others', () => {
    expect(digest(['John'])).toBe('John');
    expect(digest(['John', 'Josh'])).toBe('John and Josh');
    expect(digest(['John', 'Josh', 'Sarah'])).toBe('John, Josh and 1 other');
    expect(digest(['John', 'Josh', 'Sarah'], 3)).toBe('John, Josh and Sarah');
    expect(digest(['John', 'Josh', 'Sarah'], 3, undefined, ' • ')).toBe('John • Josh and Sarah');
    expect(digest(['John', 'Josh', 'Sarah', 'Mike'])).toBe('John, Josh and 2 others');
    expect(digest(['John', 'Josh', 'Sarah', 'Mike', 'Emma'], 3)).toBe('John, Josh, Sarah and 2 others');
  });

  it('names everyone when maxNames covers the list', () => {
    expect(digest(['John', 'Josh', 'Sarah', 'Mike'], 10)).toBe('John, Josh, Sarah and Mike');
  });

  it('reads a dotted key path in objects, an empty name where there is none', () => {
    const users = [{ profile: { name: 'John' } }, { profile: { name: 'Josh' } }, { profile: {} }, 'not an object'];
    expect(digest(users, 2, 'profile.name', ' • ')).toBe('John • Josh and 2 others');
    expect(digest(users, 4, 'profile.name')).toBe('John, Josh,  and ');
  });
});

describe('toSentence', () => {
  it('prints nothing for a non-list or an empty list', () => {
    for (const value of [[], 'not an array', null, undefined, 123, {}]) expect(toSentence(value)).toBe('');
  });

  it('joins with the reference defaults: limit 2, "other", ", ", " and ", ", and "', () => {
    expect(toSentence(['John'])).toBe('John');
    expect(toSentence(['John', 'Josh'])).toBe('John and Josh');
    expect(toSentence(['John', 'Josh', 'Sarah'], '', 3)).toBe('John, Josh, and Sarah');
    expect(toSentence(['John', 'Josh', 'Sarah'])).toBe('John, Josh, and 1 other');
    expect(toSentence(['John', 'Josh', 'Sarah', 'Alex', 'Emma'])).toBe('John, Josh, and 3 others');
  });

  it('takes a limit, an overflow word (pluralized) and three connectors', () => {
    const names = ['John', 'Josh', 'Sarah', 'Alex', 'Emma'];
    expect(toSentence(names, '', 1)).toBe('John and 4 others');
    expect(toSentence(names, '', 3)).toBe('John, Josh, Sarah, and 2 others');
    expect(toSentence(names, '', 5)).toBe('John, Josh, Sarah, Alex, and Emma');
    expect(toSentence(names, '', 2, 'person')).toBe('John, Josh, and 3 people');
    expect(toSentence(['John', 'Josh'], '', 2, 'other', ' + ', ' or ', ' & ')).toBe('John or Josh');
    expect(toSentence(['John', 'Josh', 'Sarah'], '', 2, 'other', ' + ', ' or ', ' & ')).toBe('John + Josh & 1 other');
  });

  it('reads a key path in objects; a missing or null value is an empty word', () => {
    const users = [
      { name: 'John', id: 1, profile: { name: 'J' } },
      { name: 'Josh', id: 2, profile: { name: 'Jo' } },
      { name: 'Sarah', id: 3, profile: { name: 'S' } },
    ];
    expect(toSentence(users, 'name', 3)).toBe('John, Josh, and Sarah');
    expect(toSentence(users, 'id', 3)).toBe('1, 2, and 3');
    expect(toSentence(users, 'profile.name', 3)).toBe('J, Jo, and S');
    expect(toSentence([{ name: 'John' }, { name: null }, { noName: 'Sarah' }], 'name', 3)).toBe('John, , and ');
  });
});

describe('in templates', () => {
  const variables = {
    payload: {
      count: 2,
      names: ['John', 'Jane', 'Bob', 'Alice'],
      obj: { a: 1, b: 'test' },
      list: ['a', 'b'],
      html: '<b>x</b>',
      none: null,
    },
    steps: { 'digest-step': { eventCount: 7 } },
  };

  it('renders each filter as the reference registers it, on both engines', () => {
    const cases: [string, string][] = [
      ["{{ payload.count | pluralize: 'comment' }}", '2 comments'],
      ["{{ payload.count | pluralize: 'activity', 'activities', false }}", 'activities'],
      ["{{ steps.digest-step.eventCount | minus: 5 | pluralize: 'more comment', '' }}", '2 more comments'],
      ['{{ payload.names | digest }}', 'John, Jane and 2 others'],
      ["{{ payload.names | toSentence: '', 2, 'other' }}", 'John, Jane, and 2 others'],
      ['{{ payload.count | json }}', '2'],
    ];
    for (const [template, expected] of cases) {
      expect(renderTemplate(template, variables), template).toBe(expected);
      expect(renderHtmlTemplate(template, variables), template).toBe(expected);
    }
  });

  it('prints objects and arrays as single-quoted JSON; the HTML engine escapes that and strings', () => {
    expect(renderTemplate('{{ payload.obj }} {{ payload.list }} [{{ payload.none }}]', variables)).toBe("{'a':1,'b':'test'} ['a','b'] []");
    expect(renderTemplate('{{ payload.obj | json }}', variables)).toBe("{'a':1,'b':'test'}");
    expect(renderTemplate('{{ payload.list | json: 2 }}', variables)).toBe("[\n  'a',\n  'b'\n]");
    expect(renderTemplate('{{ payload.html }}', variables)).toBe('<b>x</b>');
    expect(renderHtmlTemplate('{{ payload.obj }}', variables)).toBe('{&#39;a&#39;:1,&#39;b&#39;:&#39;test&#39;}');
    expect(renderHtmlTemplate('{{ payload.html }} {{ payload.html | raw }}', variables)).toBe('&lt;b&gt;x&lt;/b&gt; <b>x</b>');
  });

  it('takes string arguments as they are, translation keys included', () => {
    expect(renderTemplate("{{ payload.count | pluralize: 't.apple', 't.apples' }}", variables)).toBe('2 t.apples');
  });

  it('checks toSentence arguments on write as the reference does, in tags too', () => {
    const issue = (body: string) => {
      const [reading] = readTemplates({ body });
      return reading && !reading.ok ? `${reading.kind}: ${reading.message}` : undefined;
    };
    expect(issue('{{ steps.digest.events | toSentence }}')).toBe('filter: "toSentence" expects at least 1 argument (keyPath)');
    expect(issue("{{ steps.digest.events | toSentence: '' }}")).toBe(
      'filter: "toSentence" expects a non-empty string for argument "keyPath" over digest events',
    );
    expect(issue("{% if payload.on %}{{ payload.names | toSentence: '', '2' }}{% endif %}")).toBe(
      'filter: "toSentence" expects a number of at least 0 for argument "limit"',
    );
    expect(issue("{% for n in payload.lists %}{{ n | toSentence: 'name', -1 }}{% endfor %}")).toBe(
      'filter: "toSentence" expects a number of at least 0 for argument "limit"',
    );
    expect(issue("{{ payload.names | toSentence: '', 2, 5 }}")).toBe('filter: "toSentence" expects a string for argument "overflowSuffix"');
    expect(issue("{{ payload.names | toSentence: '' }}")).toBeUndefined();
    expect(issue("{{ payload.users | toSentence: payload.key, 3, 'person', ' + ', ' or ', ' & ' }}")).toBeUndefined();
    expect(issue("{{ steps.digest.events | toSentence: 'payload.name' }}")).toBeUndefined();
  });

  it('reads a template using them as valid, an unknown filter still as a filter issue', () => {
    const readings = readTemplates({
      body:
        "{{ payload.count | pluralize: 'x' }} {{ payload.names | toSentence: 'name' }} " +
        '{{ payload.names | digest: 2 }} {{ payload.obj | json }}',
      subject: '{{ payload.count | shout }}',
    });
    expect(readings.map((r) => [r.field, r.ok, r.ok ? undefined : r.kind])).toEqual([
      ['body', true, undefined],
      ['subject', false, 'filter'],
    ]);
  });
});
