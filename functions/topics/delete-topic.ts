import { route } from '#infra/routes/topics.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeTopic } from '#lib/topics/remove.ts';

export const handler = httpHandler(route('deleteTopic'), ({ caller, params }) => removeTopic(caller, params.topicKey));
