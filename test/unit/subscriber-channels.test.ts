import { describe, expect, it } from 'vitest';
import { applyCredentials } from '#lib/subscribers/channels.ts';
import type { ChannelSettings } from '#lib/subscribers/model.ts';

describe('applyCredentials', () => {
  const existing: ChannelSettings = {
    providerId: 'expo',
    _integrationId: 'i1',
    credentials: { deviceTokens: ['a'], title: 'kept' },
  };

  it('adds an entry per (provider, integration) and keeps tokens only when sent', () => {
    const added = applyCredentials([existing], { providerId: 'expo', integrationId: 'i2', credentials: { title: 't' } }, 'replace');
    expect(added).toEqual([existing, { providerId: 'expo', _integrationId: 'i2', credentials: { title: 't' } }]);
  });

  it('overlays the stored credentials; PUT replaces tokens, PATCH appends', () => {
    const update = { providerId: 'expo', integrationId: 'i1', credentials: { deviceTokens: ['b', 'a', 'b'], state: 's' } };
    expect(applyCredentials([existing], update, 'replace')[0]!.credentials).toEqual({
      title: 'kept',
      state: 's',
      deviceTokens: ['b', 'a'],
    });
    expect(applyCredentials([existing], update, 'append')[0]!.credentials).toEqual({ title: 'kept', state: 's', deviceTokens: ['a', 'b'] });
  });

  it('refuses more than 100 distinct tokens with a 400', () => {
    const tokens = Array.from({ length: 101 }, (_, i) => `t${i}`);
    const update = { providerId: 'expo', integrationId: 'i1', credentials: { deviceTokens: tokens } };
    expect(() => applyCredentials([], update, 'replace')).toThrow(expect.objectContaining({ status: 400 }));
  });
});
