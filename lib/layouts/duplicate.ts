import type { Caller } from '../auth/caller.ts';
import { copyLayoutTranslations } from '../translations/layout-translations.ts';
import { addLayout } from './add.ts';
import { requireLayout } from './lookup.ts';
import type { DuplicateLayoutInput, LayoutResponse } from './schemas.ts';
import { toLayoutResponse } from './view.ts';

/**
 * A new layout with the original's content; never the default while the environment has one. A
 * copy that renders translations gets the original's locales (the reference's DuplicateLocales).
 */
export async function duplicateLayout(caller: Caller, ref: string, input: DuplicateLayoutInput): Promise<LayoutResponse> {
  const original = await requireLayout(caller, ref);
  const copy = await addLayout(caller, { ...input, controlValues: structuredClone(original.controlValues) });
  if (copy.isTranslationEnabled) await copyLayoutTranslations({ scope: caller, layout: original }, { scope: caller, layout: copy });
  return toLayoutResponse(copy);
}
