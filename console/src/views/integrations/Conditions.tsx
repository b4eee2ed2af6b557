import type { Condition, FilterPart } from './types.ts';
import { Empty } from '../../components/states.tsx';

// An integration's conditions (which trigger it is chosen for) as sentences, not JSON.

const OPERATORS: Record<string, string> = {
  EQUAL: 'is',
  NOT_EQUAL: 'is not',
  LARGER: '>',
  SMALLER: '<',
  LARGER_EQUAL: '≥',
  SMALLER_EQUAL: '≤',
  IN: 'is one of',
  NOT_IN: 'is not one of',
  ALL_IN: 'has all of',
  ANY_IN: 'has any of',
  BETWEEN: 'is between',
  NOT_BETWEEN: 'is not between',
  LIKE: 'contains',
  NOT_LIKE: 'does not contain',
};

function Part({ part }: { part: FilterPart }) {
  return (
    <>
      <code>
        {part.on}.{part.field}
      </code>{' '}
      {OPERATORS[part.operator] ?? part.operator} <code>{JSON.stringify(part.value)}</code>
    </>
  );
}

export function Conditions({ conditions }: { conditions: readonly Condition[] }) {
  if (conditions.length === 0) {
    return <Empty>No conditions: the integration is used for every trigger of its channel.</Empty>;
  }
  return (
    <ol className="conditions">
      {conditions.map((condition, index) => (
        <li key={index}>
          {condition.isNegated ? <strong>Not: </strong> : null}
          {condition.children.length === 0
            ? 'always'
            : condition.children.map((part, i) => (
                <span key={i}>
                  {i > 0 ? <strong> {condition.value ?? 'AND'} </strong> : null}
                  <Part part={part} />
                </span>
              ))}
        </li>
      ))}
    </ol>
  );
}
