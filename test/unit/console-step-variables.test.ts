import { describe, expect, it } from 'vitest';
import { newStep, stepVariablePaths, type DraftStep } from '../../console/src/views/workflows/editor/draft.ts';

// What the workflow editor offers a step's text and conditions: the API's variables of the step
// (stepVariables) computed from the draft as it is, so they follow the payload schema being typed.

const saved = (type: DraftStep['type'], stepId: string): DraftStep => ({ ...newStep(type), _id: `id-${stepId}`, stepId });
const SCHEMA = { type: 'object', properties: { order: { type: 'object', properties: { id: { type: 'string' } } } } };

describe('a draft step’s variables', () => {
  it('offers the payload schema’s fields by their leaves, with the subscriber and env', () => {
    const paths = stepVariablePaths([newStep('in_app')], 0, SCHEMA, undefined);
    expect(paths).toContain('payload.order.id');
    expect(paths).toContain('subscriber.firstName');
    expect(paths).toContain('env');
    // Objects whose fields are listed are offered by those fields.
    expect(paths).not.toContain('payload');
    expect(paths).not.toContain('payload.order');
  });

  it('offers the outputs of the saved steps above, not of the ones below or not saved yet', () => {
    const steps = [saved('digest', 'batch'), newStep('delay'), newStep('email'), saved('in_app', 'later')];
    const paths = stepVariablePaths(steps, 2, null, undefined);
    expect(paths).toEqual(expect.arrayContaining(['steps.batch.events', 'steps.batch.eventCount', 'step.events']));
    expect(paths.filter((path) => path.startsWith('steps.later'))).toEqual([]);
    // No schema: the payload is free-form, offered as itself.
    expect(paths).toContain('payload');
  });
});
