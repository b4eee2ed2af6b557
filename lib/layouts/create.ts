import type { Caller } from '../auth/caller.ts';
import { addLayout } from './add.ts';
import { loadTemplates } from '../workflows/templates.ts';
import { assertLayoutContent } from './content.ts';
import type { CreateLayoutInput, LayoutResponse } from './schemas.ts';
import { toLayoutResponse } from './view.ts';

/** POST /v2/layouts: the content, when sent, is checked first (content.ts); nothing is written when it is refused. */
export async function createLayout(caller: Caller, input: CreateLayoutInput): Promise<LayoutResponse> {
  await loadTemplates();
  assertLayoutContent(input.controlValues);
  return toLayoutResponse(await addLayout(caller, input));
}
