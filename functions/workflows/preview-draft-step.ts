import { route } from '#infra/routes/workflows.ts';
import { idempotentHttpHandler } from '#lib/http/idempotent-handler.ts';
import { previewDraftStep } from '#lib/step-preview/draft.ts';

export const handler = idempotentHttpHandler(route('previewDraftStep'), ({ body }) => previewDraftStep(body));
