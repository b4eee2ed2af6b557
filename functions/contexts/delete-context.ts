import { route } from '#infra/routes/contexts.ts';
import { removeContext } from '#lib/contexts/remove.ts';
import { httpHandler } from '#lib/http/handler.ts';

export const handler = httpHandler(route('deleteContext'), ({ caller, params }) => removeContext(caller, params.type, params.id));
