import { route } from '#infra/routes/engagement.ts';
import { getStats } from '#lib/engagement/stats.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('getEngagementStats'), ({ caller, query }) => getStats(caller, query));
