import { route } from '#infra/routes/contexts.ts';
import { createContext } from '#lib/contexts/create.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';

export const handler = idempotentHttpHandler(route('createContext'), ({ caller, body }) => createContext(caller, body));
