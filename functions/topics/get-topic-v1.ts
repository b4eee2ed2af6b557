import { route } from '#infra/routes/topics.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getTopicV1 } from '#lib/topics/v1-topics.ts';

export const handler = httpHandler(route('getTopicV1'), ({ caller, params }) => getTopicV1(caller, params.topicKey));
