import { route } from '#infra/routes/inbox.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { openSession } from '#lib/inbox/session.ts';

export const handler = httpHandler(route('openInboxSession'), ({ body }) => openSession(body));
