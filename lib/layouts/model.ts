import type { UserRef } from '../workflows/model.ts';
import type { LayoutControlValues } from './schemas.ts';

// A stored layout: the reference's v2 layout (type BRIDGE, made here) with its email control
// values kept on the item. `layoutId` is the identifier, unique in the environment, which email
// steps name; `isDefault` is set once, on the environment's first layout, and never moves (there
// is no route that moves it, and the default cannot be deleted).

export interface StoredLayout {
  _id: string;
  _organizationId: string;
  _environmentId: string;
  layoutId: string;
  name: string;
  isDefault: boolean;
  isTranslationEnabled: boolean;
  /** null: none stored (a layout whose values were removed renders the step body alone). */
  controlValues: LayoutControlValues | null;
  createdAt: string;
  updatedAt: string;
  updatedBy?: UserRef;
}

/** The reference's EMPTY_LAYOUT: what a layout created without content holds (a block document with only the slot). */
export const EMPTY_LAYOUT_DOCUMENT = JSON.stringify({
  type: 'doc',
  content: [
    { type: 'paragraph', attrs: { textAlign: null, showIfKey: null }, content: [{ type: 'text', text: ' ' }] },
    {
      type: 'paragraph',
      attrs: { textAlign: 'left', showIfKey: null },
      content: [{ type: 'variable', attrs: { id: 'content', label: null, fallback: null, required: false, aliasFor: null } }],
    },
    { type: 'paragraph', attrs: { textAlign: null, showIfKey: null }, content: [{ type: 'text', text: ' ' }] },
  ],
});
