import type { RouteObject } from 'react-router';
import { StatsView } from './StatsView.tsx';

// The stats view, under /console/env/:environmentId/stats.
export const statsRoutes: RouteObject[] = [{ path: 'stats', element: <StatsView /> }];
