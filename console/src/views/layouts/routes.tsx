import type { RouteObject } from 'react-router';
import { LayoutsList } from './LayoutsList.tsx';

// The layouts views, under /console/env/:environmentId/layouts.
export const layoutsRoutes: RouteObject[] = [{ path: 'layouts', element: <LayoutsList /> }];
