import type { RouteObject } from 'react-router';
import { TranslationGroupView } from './TranslationGroupView.tsx';
import { TranslationsList } from './TranslationsList.tsx';

// The translations views, under /console/env/:environmentId/translations.
export const translationsRoutes: RouteObject[] = [
  { path: 'translations', element: <TranslationsList /> },
  { path: 'translations/:resourceType/:resourceId', element: <TranslationGroupView /> },
];
