import type { RouteObject } from 'react-router';
import { LayoutDetail } from './LayoutDetail.tsx';
import { LayoutsList } from './LayoutsList.tsx';

// The layouts views, under /console/env/:environmentId/layouts.
export const layoutsRoutes: RouteObject[] = [
  { path: 'layouts', element: <LayoutsList /> },
  { path: 'layouts/:layoutId', element: <LayoutDetail /> },
];
