import type { Caller } from '../auth/caller.ts';
import { BadRequestError, ConflictError } from '../errors.ts';
import { newId } from '../ids.ts';
import { retryOnStaleWrite } from '../store/stale-write.ts';
import { slugify } from '../workflows/slug.ts';
import { EMPTY_LAYOUT_DOCUMENT, type StoredLayout } from './model.ts';
import { getDefaultLayoutId, insertLayout, listLayouts } from './repository.ts';

// A new layout in the caller's environment (the reference's upsert, create half): its identifier
// (default: the slugified name) must be free, the environment may hold at most MAX_LAYOUTS, and
// the first layout of an environment becomes its default. Used by the create and duplicate routes,
// by workflow sync and by the provisioning of a new environment. Its content is checked by the
// create route (create.ts); the others copy content that was checked when it was written, so
// they (workflow sync among them) do not bundle the template engine.

/** The reference's system limit of layouts per environment. */
export const MAX_LAYOUTS = 100;

export interface NewLayout {
  layoutId?: string;
  name: string;
  isTranslationEnabled?: boolean;
  /** undefined: an empty block document holding only the slot (the reference's EMPTY_LAYOUT). */
  controlValues?: StoredLayout['controlValues'];
}

export async function addLayout(caller: Caller, input: NewLayout): Promise<StoredLayout> {
  const [existing, defaultLayoutId] = await Promise.all([listLayouts(caller), getDefaultLayoutId(caller)]);
  if (existing.length >= MAX_LAYOUTS) throw new BadRequestError('Layout limit exceeded. Please contact us to support more layouts.');
  const now = new Date().toISOString();
  const _id = newId(Date.parse(now));
  const layoutId = input.layoutId || slugify(input.name) || _id;
  const layout: StoredLayout = {
    _id,
    _organizationId: caller.organizationId,
    _environmentId: caller.environmentId,
    layoutId,
    name: input.name,
    isDefault: defaultLayoutId === undefined,
    isTranslationEnabled: input.isTranslationEnabled ?? false,
    controlValues:
      input.controlValues === undefined ? { email: { body: EMPTY_LAYOUT_DOCUMENT, editorType: 'block' } } : input.controlValues,
    createdAt: now,
    updatedAt: now,
    updatedBy: { _id: caller.userId },
  };
  // Of two first layouts written at once, one is told `default-taken` and is written again as
  // not default; a transaction conflict between them is retried.
  const outcome = await retryOnStaleWrite(async () => {
    const first = await insertLayout(layout);
    if (first !== 'default-taken') return first;
    layout.isDefault = false;
    return insertLayout(layout);
  });
  if (outcome !== 'created')
    throw new ConflictError(`Layout with identifier: ${layoutId} already exists under environment ${caller.environmentId}`);
  return layout;
}
