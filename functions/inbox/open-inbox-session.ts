import { route } from '#infra/routes/inbox.ts';
import { publicHttpHandler } from '#lib/http/public-handler.ts';
import { openSession } from '#lib/inbox/session.ts';

export const handler = publicHttpHandler(route('openInboxSession'), ({ body }) => openSession(body));
