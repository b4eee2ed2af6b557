import jsonLogic from 'json-logic-js';
import type { StepFilter } from '../integrations/schemas.ts';
import { loadTemplates, renderTemplate } from './templates.ts';

// Whether a step runs, from its conditions. Older workflows carry StepFilters: the step runs when
// any filter passes; a filter combines its children with AND or OR, and `isNegated` inverts it.
// Every operator does what its name says (the reference leaves several always false and ignores
// `isNegated`). Newer steps carry a JSON-logic rule in `skip`: the step runs when it is true.

export interface ConditionVariables {
  subscriber: Record<string, unknown>;
  payload: Record<string, unknown>;
  tenant?: Record<string, unknown>;
  [name: string]: unknown;
}

type Child = StepFilter['children'][number];
type FieldChild = Exclude<Child, { on: 'previousStep' }>;

/** What stepFiltersPass needs for `filters`, loaded: the template engine when a child's value is rendered. Await it first. */
export async function loadStepFilters(filters: readonly StepFilter[] | undefined): Promise<void> {
  if (filters?.some((filter) => filter.children.some((child) => child.on !== 'previousStep'))) await loadTemplates();
}

export function stepFiltersPass(filters: readonly StepFilter[] | undefined, variables: ConditionVariables): boolean {
  if (!filters || filters.length === 0) return true;
  return filters.some((filter) => filterPasses(filter, variables));
}

function filterPasses(filter: StepFilter, variables: ConditionVariables): boolean {
  const results = filter.children.map((child) => childPasses(child, variables));
  let passed: boolean;
  if (results.length === 0) passed = true;
  else if (filter.value === 'OR') passed = results.some(Boolean);
  else passed = results.every(Boolean);
  return filter.isNegated ? !passed : passed;
}

function childPasses(child: Child, variables: ConditionVariables): boolean {
  if (child.on === 'previousStep') return previousStepPasses(child, variables);
  const actual = valueAt(variables[child.on], child.field);
  const expected = renderTemplate(child.value, variables);
  return compare(child.operator, actual, expected);
}

type PreviousStepChild = Extract<Child, { on: 'previousStep' }>;

/**
 * An earlier step's engagement (`steps.<stepId>`: lib/pipeline/engagement.ts). A step that made
 * no message (skipped, not reached, or named by no earlier job) passes, as in the reference. For
 * an email, read and seen mean opened, as the reference reads them from the provider's receipts.
 */
function previousStepPasses(child: PreviousStepChild, variables: ConditionVariables): boolean {
  const steps = (variables.steps ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const engagement = steps[child.step];
  if (!engagement || typeof engagement.messageId !== 'string') return true;
  const negated = child.stepType.startsWith('un');
  const event = negated ? child.stepType.slice(2) : child.stepType;
  const field = engagement.channel === 'email' && (event === 'read' || event === 'seen') ? 'opened' : event;
  return engagement[field] === true ? !negated : negated;
}

/** Whether any filter tests an earlier step's engagement (then its messages are read). */
export const filtersNameEarlierSteps = (filters: readonly StepFilter[] | undefined): boolean =>
  (filters ?? []).some((f) => f.children.some((c) => c.on === 'previousStep'));

/** Whether a JSON-logic rule reads a `steps.` variable (then the earlier steps' messages are read). */
export const ruleNamesSteps = (rule: unknown): boolean => rule !== undefined && rule !== null && /"steps\./.test(JSON.stringify(rule));

function valueAt(root: unknown, path: string): unknown {
  let current = root;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** A filter value holding several values: a JSON array, or comma-separated text. */
export function listOf(value: string): string[] {
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // not JSON: read it as comma-separated text
    }
  }
  return trimmed === '' ? [] : trimmed.split(',').map((v) => v.trim());
}

/** Orders two values: as numbers when both are numeric, else as text (ISO dates order as text). */
function order(a: unknown, b: string): number | undefined {
  if (a === undefined || a === null) return undefined;
  const x = Number(a);
  const y = Number(b);
  if (typeof a !== 'boolean' && String(a).trim() !== '' && b.trim() !== '' && !Number.isNaN(x) && !Number.isNaN(y)) {
    return x - y;
  }
  const text = String(a);
  return text < b ? -1 : text > b ? 1 : 0;
}

/** A comparison with a missing value is false, whatever the operator. */
const holds = (comparison: number | undefined, test: (c: number) => boolean): boolean => comparison !== undefined && test(comparison);

function equals(actual: unknown, expected: string): boolean {
  if (actual === undefined || actual === null) return false;
  if (typeof actual === 'number') return actual === Number(expected);
  if (typeof actual === 'boolean') return String(actual) === expected.trim().toLowerCase();
  return String(actual) === expected;
}

/** SQL LIKE: `%` any run of characters, `_` one character; case-insensitive. */
function like(actual: unknown, pattern: string): boolean {
  if (actual === undefined || actual === null) return false;
  const source = pattern
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/%/g, '.*')
    .replace(/_/g, '.');
  return new RegExp(`^${source}$`, 'is').test(String(actual));
}

const elements = (actual: unknown): unknown[] => (Array.isArray(actual) ? actual : actual === undefined ? [] : [actual]);

function compare(operator: FieldChild['operator'], actual: unknown, expected: string): boolean {
  switch (operator) {
    case 'EQUAL':
      return equals(actual, expected);
    case 'NOT_EQUAL':
      return !equals(actual, expected);
    case 'LARGER':
      return holds(order(actual, expected), (c) => c > 0);
    case 'SMALLER':
      return holds(order(actual, expected), (c) => c < 0);
    case 'LARGER_EQUAL':
      return holds(order(actual, expected), (c) => c >= 0);
    case 'SMALLER_EQUAL':
      return holds(order(actual, expected), (c) => c <= 0);
    case 'IN':
      return elements(actual).some((a) => listOf(expected).some((e) => equals(a, e)));
    case 'NOT_IN':
      return !elements(actual).some((a) => listOf(expected).some((e) => equals(a, e)));
    case 'ANY_IN':
      return elements(actual).some((a) => listOf(expected).some((e) => equals(a, e)));
    case 'ALL_IN': {
      const have = elements(actual);
      const want = listOf(expected);
      return want.length > 0 && want.every((e) => have.some((a) => equals(a, e)));
    }
    case 'BETWEEN':
    case 'NOT_BETWEEN': {
      const [low, high] = listOf(expected);
      const inside =
        low !== undefined && high !== undefined && holds(order(actual, low), (c) => c >= 0) && holds(order(actual, high), (c) => c <= 0);
      return operator === 'BETWEEN' ? inside : !inside;
    }
    case 'LIKE':
      return like(actual, expected);
    case 'NOT_LIKE':
      return !like(actual, expected);
  }
}

/** A v2 step's `skip` control: a JSON-logic rule; the step runs when it is empty or true. */
export function skipRulePasses(rule: unknown, variables: ConditionVariables): boolean {
  if (rule === undefined || rule === null) return true;
  if (typeof rule === 'object' && Object.keys(rule).length === 0) return true;
  return Boolean(jsonLogic.apply(rule as jsonLogic.RulesLogic, variables));
}
