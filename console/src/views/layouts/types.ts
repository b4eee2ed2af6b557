import { consolePath } from '../../components/console-path.ts';

// The fields of the API's layout bodies (/v2/layouts, docs/layouts.md) this view reads.

export interface Layout {
  _id: string;
  layoutId: string;
  slug: string;
  name: string;
  isDefault: boolean;
  isTranslationEnabled: boolean;
  createdAt: string;
  updatedAt: string;
  controls?: { values: { email?: { body: string; editorType: 'html' | 'block' } } };
}

export interface LayoutList {
  layouts: Layout[];
  totalCount: number;
}

export interface LayoutUsage {
  workflows: { name: string; workflowId: string }[];
}

export interface LayoutPreview {
  result: { type: 'email'; preview?: { body: string } };
}

export const layoutsPath = (environmentId: string) => consolePath(environmentId, 'layouts');
export const layoutPath = (environmentId: string, layoutId: string) => `${layoutsPath(environmentId)}/${encodeURIComponent(layoutId)}`;
