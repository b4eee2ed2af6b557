import { route } from '#infra/routes/execution-details.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { getExecutionDetails } from '#lib/activity/execution-details.ts';

export const handler = httpHandler(route('getExecutionDetails'), ({ caller, query }) => getExecutionDetails(caller, query));
