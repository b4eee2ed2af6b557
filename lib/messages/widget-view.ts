import type { StoredMessage } from './model.ts';
import { messageView } from './view.ts';
import type { Subscriber } from '../subscribers/model.ts';

// A message as the legacy in-app clients read it, on the REST routes and in the socket's
// `notification_received` alike: the reference's message entity (the API's message view, the
// same one `/v1/messages` answers) with the feed's populated `subscriber` and `template`, and
// `actor` always present (the widget switches on `actor.type`).

type Profile = Pick<Subscriber, '_id' | 'subscriberId' | 'firstName' | 'lastName' | 'avatar'>;

export function widgetMessage(m: StoredMessage, subscriber: Profile | undefined) {
  return {
    ...messageView(m),
    actor: m.actor ?? { type: 'none' as const, data: null },
    deleted: false,
    subscriber: {
      _id: subscriber?._id ?? m._subscriberId,
      subscriberId: subscriber?.subscriberId ?? m.subscriberId,
      firstName: subscriber?.firstName ?? undefined,
      lastName: subscriber?.lastName ?? undefined,
      avatar: subscriber?.avatar ?? undefined,
    },
    template: { _id: m._templateId, tags: m.tags },
  };
}

export type WidgetMessage = ReturnType<typeof widgetMessage>;
