import type { Caller } from '../auth/caller.ts';
import { addLayout } from './add.ts';
import { requireLayout } from './lookup.ts';
import type { DuplicateLayoutInput, LayoutResponse } from './schemas.ts';
import { toLayoutResponse } from './view.ts';

/** A new layout with the original's content; never the default while the environment has one. */
export async function duplicateLayout(caller: Caller, ref: string, input: DuplicateLayoutInput): Promise<LayoutResponse> {
  const original = await requireLayout(caller, ref);
  const copy = await addLayout(caller, { ...input, controlValues: structuredClone(original.controlValues) });
  return toLayoutResponse(copy);
}
