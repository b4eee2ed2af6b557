import { describe, expect, it } from 'vitest';
import { inboxNotification } from '#lib/inbox/message-views.ts';
import { inboxNotificationSchema } from '#lib/inbox/subscriber-schemas.ts';
import { buildMessage } from '../support/message-builder.ts';

// The inbox's view of a message (what /v1/inbox and /v2/subscribers/{id}/notifications answer)
// against the schema the OpenAPI document publishes for it.

const scope = { organizationId: 'org', environmentId: 'env' };
const recipient = { subscriberId: 'ada', _id: 'sub-db-id' };

describe('inbox notification view', () => {
  it('matches the documented schema, fresh and after every change', () => {
    const fresh = buildMessage(scope, recipient, { subject: 'Hi', avatar: 'https://a.example/x.png', data: { k: 1 }, tags: ['t'] });
    const changed = buildMessage(scope, recipient, {
      read: true,
      seen: true,
      archived: true,
      lastReadDate: '2026-01-01T00:00:00.000Z',
      firstSeenDate: '2026-01-01T00:00:00.000Z',
      archivedAt: '2026-01-01T00:00:00.000Z',
      snoozedUntil: '2026-02-01T00:00:00.000Z',
      cta: {
        data: { url: '/x', target: '_blank' },
        action: {
          status: 'done',
          buttons: [
            { type: 'primary', content: 'Go', url: '/go' },
            { type: 'secondary', content: 'Later' },
          ],
          result: { type: 'primary' },
        },
      },
    });
    for (const [message, profile] of [
      [fresh, undefined],
      [changed, { _id: 'sub-db-id', subscriberId: 'ada', firstName: 'Ada', lastName: null, avatar: null }],
    ] as const) {
      const view = inboxNotification(message, profile as Parameters<typeof inboxNotification>[1]);
      const parsed = inboxNotificationSchema.safeParse(JSON.parse(JSON.stringify(view)));
      expect(parsed.error?.issues ?? []).toEqual([]);
    }
    const view = inboxNotification(changed, undefined);
    expect(view).toMatchObject({
      isSnoozed: true,
      primaryAction: { label: 'Go', isCompleted: true, redirect: { url: '/go' } },
      secondaryAction: { label: 'Later', isCompleted: false },
      redirect: { url: '/x', target: '_blank' },
    });
  });
});
