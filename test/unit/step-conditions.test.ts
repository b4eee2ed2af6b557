import { beforeAll, describe, expect, it } from 'vitest';
import type { StepFilter } from '#lib/integrations/schemas.ts';
import { listOf, skipRulePasses, stepFiltersPass, type ConditionVariables } from '#lib/workflows/step-conditions.ts';
import { loadTemplates } from '#lib/workflows/templates.ts';

// The template engine is a lazy package (lib/workflows/templates.ts): loaded before the synchronous calls.
beforeAll(() => loadTemplates());

// Step conditions: every StepFilter operator as named, isNegated honoured, AND/OR, several
// filters OR-ed, values rendered from variables; and the JSON-logic skip rule of v2 steps.

const vars: ConditionVariables = {
  subscriber: { firstName: 'Ada', email: 'ada@example.com', data: { plan: 'pro', seats: 12 } },
  payload: { amount: 250, tags: ['billing', 'urgent'], country: 'PT', when: '2026-05-01T10:00:00Z', vip: true, limit: 100 },
};

type Op = Extract<StepFilter['children'][number], { operator: unknown }>['operator'];
const child = (on: 'payload' | 'subscriber', field: string, operator: Op, value: string) => ({ on, field, operator, value });
const filter = (children: StepFilter['children'], extra: Partial<StepFilter> = {}): StepFilter => ({
  isNegated: false,
  type: 'GROUP',
  value: 'AND',
  children,
  ...extra,
});
const passes = (on: 'payload' | 'subscriber', field: string, operator: Op, value: string) =>
  stepFiltersPass([filter([child(on, field, operator, value)])], vars);

describe('stepFiltersPass operators', () => {
  it.each<[Op, string, string, boolean]>([
    ['EQUAL', 'amount', '250', true],
    ['EQUAL', 'country', 'pt', false],
    ['EQUAL', 'vip', 'true', true],
    ['NOT_EQUAL', 'country', 'ES', true],
    ['LARGER', 'amount', '99', true],
    ['LARGER', 'amount', '250', false],
    ['SMALLER', 'amount', '1000', true],
    ['LARGER_EQUAL', 'amount', '250', true],
    ['SMALLER_EQUAL', 'amount', '249', false],
    ['LARGER', 'when', '2026-01-01T00:00:00Z', true],
    ['IN', 'country', 'PT,ES,FR', true],
    ['IN', 'country', '["ES","FR"]', false],
    ['NOT_IN', 'country', 'ES,FR', true],
    ['ANY_IN', 'tags', 'urgent,low', true],
    ['ANY_IN', 'tags', 'low', false],
    ['ALL_IN', 'tags', 'billing,urgent', true],
    ['ALL_IN', 'tags', 'billing,low', false],
    ['BETWEEN', 'amount', '100,300', true],
    ['BETWEEN', 'amount', '251,300', false],
    ['NOT_BETWEEN', 'amount', '251,300', true],
    ['LIKE', 'country', 'p%', true],
    ['LIKE', 'country', '_T', true],
    ['LIKE', 'country', 'E%', false],
    ['NOT_LIKE', 'country', 'E%', true],
  ])('%s on payload.%s with %s is %s', (operator, field, value, expected) => {
    expect(passes('payload', field, operator, value)).toBe(expected);
  });

  it('reads nested subscriber fields', () => {
    expect(passes('subscriber', 'data.plan', 'EQUAL', 'pro')).toBe(true);
    expect(passes('subscriber', 'data.seats', 'LARGER_EQUAL', '12')).toBe(true);
  });

  it('is false for a missing value with every comparing operator', () => {
    for (const op of ['EQUAL', 'LARGER', 'SMALLER', 'LARGER_EQUAL', 'SMALLER_EQUAL', 'IN', 'ANY_IN', 'ALL_IN', 'BETWEEN', 'LIKE'] as Op[]) {
      expect(passes('payload', 'missing', op, '1,2'), op).toBe(false);
    }
  });

  it('renders the filter value from the variables first', () => {
    expect(passes('payload', 'amount', 'LARGER', '{{payload.limit}}')).toBe(true);
  });
});

describe('stepFiltersPass combining', () => {
  const yes = child('payload', 'country', 'EQUAL', 'PT');
  const no = child('payload', 'country', 'EQUAL', 'ES');

  it('passes without filters or children', () => {
    expect(stepFiltersPass(undefined, vars)).toBe(true);
    expect(stepFiltersPass([], vars)).toBe(true);
    expect(stepFiltersPass([filter([])], vars)).toBe(true);
  });

  it('combines children with AND or OR', () => {
    expect(stepFiltersPass([filter([yes, no])], vars)).toBe(false);
    expect(stepFiltersPass([filter([yes, no], { value: 'OR' })], vars)).toBe(true);
  });

  it('honours isNegated', () => {
    expect(stepFiltersPass([filter([no], { isNegated: true })], vars)).toBe(true);
    expect(stepFiltersPass([filter([yes], { isNegated: true })], vars)).toBe(false);
  });

  it('passes when any one of several filters passes', () => {
    expect(stepFiltersPass([filter([no]), filter([yes])], vars)).toBe(true);
    expect(stepFiltersPass([filter([no]), filter([no])], vars)).toBe(false);
  });
});

describe('skipRulePasses', () => {
  it('runs the step when the rule is empty or true', () => {
    expect(skipRulePasses(undefined, vars)).toBe(true);
    expect(skipRulePasses({}, vars)).toBe(true);
    expect(skipRulePasses({ '>': [{ var: 'payload.amount' }, 100] }, vars)).toBe(true);
  });

  it('skips the step when the rule is false', () => {
    expect(skipRulePasses({ '==': [{ var: 'subscriber.data.plan' }, 'free'] }, vars)).toBe(false);
  });
});

describe('listOf', () => {
  it('reads JSON arrays and comma-separated text', () => {
    expect(listOf('[1, "a"]')).toEqual(['1', 'a']);
    expect(listOf(' a, b ,c ')).toEqual(['a', 'b', 'c']);
    expect(listOf('')).toEqual([]);
  });
});
