import { route } from '#infra/routes/environments.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { environmentTags } from '#lib/workflows/environment-tags.ts';

export const handler = httpHandler(route('getEnvironmentTags'), ({ caller, params }) => environmentTags(caller, params.environmentId));
