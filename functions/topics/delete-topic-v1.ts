import { route } from '#infra/routes/topics.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeTopicV1 } from '#lib/topics/v1-topics.ts';

export const handler = httpHandler(route('deleteTopicV1'), ({ caller, params }) => removeTopicV1(caller, params.topicKey));
