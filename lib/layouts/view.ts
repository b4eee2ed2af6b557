import { layoutSlug } from '../workflows/slug.ts';
import type { StoredLayout } from './model.ts';
import type { LayoutResponse } from './schemas.ts';
import { LAYOUT_VARIABLES } from './variables.ts';

// The reference's LayoutResponseDto of a stored layout. A list item is thinner, as the
// reference's: no schemas, no variables, no values.

const DATA_SCHEMA = {
  type: 'object',
  properties: {
    email: {
      type: 'object',
      properties: { body: { type: 'string', minLength: 1 }, editorType: { type: 'string', enum: ['block', 'html'], default: 'block' } },
      required: ['body'],
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

const UI_SCHEMA = {
  group: 'LAYOUT',
  properties: {
    email: {
      component: 'LAYOUT_EMAIL',
      properties: {
        body: { component: 'EMAIL_BODY', placeholder: '' },
        editorType: { component: 'EMAIL_EDITOR_SELECT', placeholder: 'block' },
      },
    },
  },
};

function identity(layout: StoredLayout) {
  return {
    _id: layout._id,
    layoutId: layout.layoutId,
    slug: layoutSlug(layout.name, layout._id),
    name: layout.name,
    isDefault: layout.isDefault,
    isTranslationEnabled: layout.isTranslationEnabled,
    updatedAt: layout.updatedAt,
    ...(layout.updatedBy && { updatedBy: layout.updatedBy }),
    createdAt: layout.createdAt,
    origin: 'svc-cloud' as const,
    type: 'BRIDGE' as const,
  };
}

export function toLayoutResponse(layout: StoredLayout): LayoutResponse {
  return {
    ...identity(layout),
    variables: LAYOUT_VARIABLES,
    controls: {
      dataSchema: DATA_SCHEMA,
      uiSchema: UI_SCHEMA,
      values: layout.controlValues?.email ? { email: layout.controlValues.email } : {},
    },
  };
}

export function toLayoutListItem(layout: StoredLayout): LayoutResponse {
  return { ...identity(layout), variables: {}, controls: { values: {} } };
}
