import { route } from '#infra/routes/contexts.ts';
import { requireContext } from '#lib/contexts/get.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('getContext'), ({ caller, params }) => requireContext(caller, params.type, params.id));
