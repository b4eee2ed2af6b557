import { describe, expect, it } from 'vitest';
import { decideChannel, layersOf, workflowEnabled, type PreferenceLayers } from '#lib/preferences/merge.ts';
import { DEFAULT_WORKFLOW_PREFERENCES, type WorkflowPreferences } from '#lib/workflows/model.ts';

// The order of preference layers: workflow defaults, author, subscriber global, subscriber
// per-workflow; critical workflows stop after the author.

const prefs = (all: boolean, channels: WorkflowPreferences['channels'] = {}): WorkflowPreferences => ({
  all: { enabled: all, readOnly: false },
  channels,
});

const base: PreferenceLayers = { defaults: DEFAULT_WORKFLOW_PREFERENCES, author: null };

describe('decideChannel', () => {
  it('is on by default, decided by the workflow', () => {
    expect(decideChannel(base, 'email', false)).toEqual({ enabled: true, source: 'template' });
  });

  it("lets the author's setting override the workflow default", () => {
    const layers = { ...base, author: prefs(true, { email: { enabled: false } }) };
    expect(decideChannel(layers, 'email', false)).toEqual({ enabled: false, source: 'template' });
  });

  it("falls back to a document's `all` switch for a channel it does not name", () => {
    const layers = { defaults: prefs(false), author: null };
    expect(decideChannel(layers, 'sms', false)).toEqual({ enabled: false, source: 'template' });
  });

  it('lets the subscriber global choice override the workflow', () => {
    const layers = { ...base, subscriberGlobal: { email: false } };
    expect(decideChannel(layers, 'email', false)).toEqual({ enabled: false, source: 'subscriber' });
    expect(decideChannel(layers, 'sms', false)).toEqual({ enabled: true, source: 'template' });
  });

  it('lets the per-workflow choice override the global one', () => {
    const layers = { ...base, subscriberGlobal: { email: false }, subscriberWorkflow: { email: true } };
    expect(decideChannel(layers, 'email', false)).toEqual({ enabled: true, source: 'subscriber' });
  });

  it('ignores subscriber choices on a critical workflow', () => {
    const layers = { ...base, subscriberGlobal: { email: false }, subscriberWorkflow: { email: false } };
    expect(decideChannel(layers, 'email', true)).toEqual({ enabled: true, source: 'template' });
  });

  it("keeps a critical workflow's own author settings", () => {
    const layers = { ...base, author: prefs(true, { sms: { enabled: false } }), subscriberGlobal: { sms: true } };
    expect(decideChannel(layers, 'sms', true)).toEqual({ enabled: false, source: 'template' });
  });
});

describe('workflowEnabled', () => {
  const workflow = { _id: 'wf1', defaultPreferences: DEFAULT_WORKFLOW_PREFERENCES, userPreferences: null };
  const choices = (enabled?: boolean) => ({
    workflows: new Map([
      ['wf1', { workflowDbId: 'wf1', channels: { email: true }, updatedAt: '', ...(enabled !== undefined && { enabled }) }],
    ]),
  });

  it('is on unless the subscriber switched the workflow off', () => {
    expect(workflowEnabled(layersOf(workflow, { workflows: new Map() }), false)).toBe(true);
    expect(workflowEnabled(layersOf(workflow, choices()), false)).toBe(true);
    expect(workflowEnabled(layersOf(workflow, choices(true)), false)).toBe(true);
    expect(workflowEnabled(layersOf(workflow, choices(false)), false)).toBe(false);
  });

  it("leaves the channels' decisions as they are, and a critical workflow on", () => {
    const layers = layersOf(workflow, choices(false));
    expect(decideChannel(layers, 'email', false)).toEqual({ enabled: true, source: 'subscriber' });
    expect(workflowEnabled(layers, true)).toBe(true);
  });

  it('is off for every workflow the subscriber switched off globally, whatever its own switch, but not a critical one', () => {
    const globallyOff = (enabled?: boolean) => ({ ...choices(enabled), global: { channels: {}, updatedAt: '', enabled: false } });
    expect(workflowEnabled(layersOf(workflow, globallyOff()), false)).toBe(false);
    expect(workflowEnabled(layersOf(workflow, globallyOff(true)), false)).toBe(false);
    expect(workflowEnabled(layersOf(workflow, globallyOff()), true)).toBe(true);
    const globallyOn = { ...choices(), global: { channels: {}, updatedAt: '', enabled: true } };
    expect(workflowEnabled(layersOf(workflow, globallyOn), false)).toBe(true);
  });
});
