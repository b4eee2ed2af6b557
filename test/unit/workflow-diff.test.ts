import { describe, expect, it } from 'vitest';
import { diffWorkflows } from '#lib/promotion/workflow-diff.ts';
import { step, workflow } from '../support/workflow-builder.ts';

// The promotion diff (lib/promotion/workflow-diff.ts): what a publish of the source would change
// in the target, by workflowId and, inside a workflow, by stepId.

const inbox = (body: string, stepId = 'inbox') => step('in_app', { body }, stepId);
const email = (subject: string, stepId = 'mail') => step('email', { subject, body: '<p>x</p>' }, stepId);

describe('diffWorkflows', () => {
  it('tells added, unchanged, modified and deleted workflows apart', () => {
    const source = [
      workflow([inbox('a')], { workflowId: 'new', name: 'New' }),
      workflow([inbox('a')], { workflowId: 'same', name: 'Same' }),
      workflow([inbox('b')], { workflowId: 'changed', name: 'Changed' }),
    ];
    const target = [
      workflow([inbox('a')], { workflowId: 'same', name: 'Same' }),
      workflow([inbox('a')], { workflowId: 'changed', name: 'Changed' }),
      workflow([inbox('a')], { workflowId: 'gone', name: 'Gone' }),
    ];
    const actions = Object.fromEntries(diffWorkflows(source, target).map((d) => [d.workflowId, d.action]));
    expect(actions).toEqual({ new: 'added', same: 'unchanged', changed: 'modified', gone: 'deleted' });
    const same = diffWorkflows(source, target).find((d) => d.workflowId === 'same')!;
    expect(same.changes).toEqual([expect.objectContaining({ action: 'unchanged', resourceType: 'REGULAR' })]);
    expect(same.summary).toEqual({ added: 0, modified: 0, deleted: 0, unchanged: 1 });
  });

  it('compares steps by stepId: added, removed, changed and only reordered', () => {
    const [diff] = diffWorkflows(
      [workflow([email('Hi'), inbox('new text'), inbox('x', 'extra')])],
      [workflow([inbox('old text'), email('Hi'), inbox('y', 'dropped')])],
    );
    expect(diff!.action).toBe('modified');
    expect(diff!.changes.map((c) => [c.action, c.stepType, c.previousIndex, c.newIndex])).toEqual([
      ['modified', undefined, undefined, undefined],
      ['moved', 'email', 1, 0],
      ['modified', 'in_app', 0, 1],
      ['added', 'in_app', undefined, 2],
      ['deleted', 'in_app', 2, undefined],
    ]);
    expect(diff!.changes[2]!.diffs).toEqual({
      previous: expect.objectContaining({ controlValues: { body: 'old text' } }),
      new: expect.objectContaining({ controlValues: { body: 'new text' } }),
    });
    expect(diff!.summary).toEqual({ added: 1, modified: 3, deleted: 1, unchanged: 0 });
  });

  it('sees a change of what the sync copies besides steps (tags, preferences)', () => {
    const [tags] = diffWorkflows([workflow([inbox('a')], { tags: ['x'] })], [workflow([inbox('a')])]);
    expect(tags!.action).toBe('modified');
    expect(tags!.changes[0]!.diffs).toEqual({
      previous: expect.objectContaining({ tags: [] }),
      new: expect.objectContaining({ tags: ['x'] }),
    });
    // Ids, slugs and times differ between environments and are not changes.
    const [ids] = diffWorkflows([workflow([inbox('a')], { updatedAt: '2027-01-01T00:00:00.000Z' })], [workflow([inbox('a')])]);
    expect(ids!.action).toBe('unchanged');
  });

  it('leaves code-first and v1 workflows out', () => {
    const source = [workflow([inbox('a')], { workflowId: 'code', origin: 'external' })];
    const target = [workflow([inbox('a')], { workflowId: 'v1', origin: 'svc-cloud-v1' })];
    expect(diffWorkflows(source, target)).toEqual([]);
  });
});
