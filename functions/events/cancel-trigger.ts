import { route } from '#infra/routes/events.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { cancelTrigger } from '#lib/pipeline/cancel.ts';

export const handler = httpHandler(route('cancelTrigger'), ({ caller, params }) => cancelTrigger(caller, params.transactionId));
