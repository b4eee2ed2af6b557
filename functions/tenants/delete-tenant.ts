import { route } from '#infra/routes/tenants.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { removeTenant } from '#lib/tenants/remove.ts';

export const handler = httpHandler(route('deleteTenant'), ({ caller, params }) => removeTenant(caller, params.identifier));
