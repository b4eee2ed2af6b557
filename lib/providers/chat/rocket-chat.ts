import { ProviderError } from '../provider.ts';
import { webhookChat } from './webhook-chat.ts';

// Rocket.Chat REST API: the subscriber's webhookUrl is the server's address and its `channel`
// the room (an id, `#channel` or `@user`); the integration holds the user id and personal
// access token sent as X-User-Id / X-Auth-Token.
export const rocketChat = webhookChat({
  id: 'rocket-chat',
  name: 'Rocket.Chat',
  message: (d) => {
    const room = d.channelCredentials?.channel?.trim();
    if (!room)
      throw new ProviderError('Rocket.Chat needs the room in the subscriber credentials (`channel`: a room id, #channel or @user)');
    return { ...(/^[#@]/.test(room) ? { channel: room } : { roomId: room }), text: d.content };
  },
  request: (d, message) => {
    const c = d.integration.credentials as Record<string, unknown>;
    return {
      url: `${d.to.replace(/\/+$/, '')}/api/v1/chat.postMessage`,
      headers: { 'x-auth-token': String(c.token ?? ''), 'x-user-id': String(c.user ?? '') },
      json: message,
    };
  },
  idOf: (answer) => {
    const body = answer.body as { success?: unknown; message?: { _id?: unknown } } | undefined;
    if (body?.success === false) throw new ProviderError('Rocket.Chat did not post the message', { status: answer.status, body });
    return body?.message?._id;
  },
});
