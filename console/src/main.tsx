import '@picocss/pico/css/pico.min.css';
import './styles.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { Home, Shell } from './layout/Shell.tsx';
import { NotFound } from './layout/NotFound.tsx';
import { activityRoutes } from './views/activity/routes.tsx';
import { integrationsRoutes } from './views/integrations/routes.tsx';
import { layoutsRoutes } from './views/layouts/routes.tsx';
import { SignIn } from './views/sign-in/SignIn.tsx';
import { statsRoutes } from './views/stats/routes.tsx';
import { subscribersRoutes } from './views/subscribers/routes.tsx';
import { translationsRoutes } from './views/translations/routes.tsx';
import { webhooksRoutes } from './views/webhooks/routes.tsx';
import { workflowsRoutes } from './views/workflows/routes.tsx';

// Every view has a URL of its own (the environment, the record, the filters in the query), so
// any of them can be shared; the server answers every /console/ path with this page.
const router = createBrowserRouter([
  { path: '/', element: <Home /> },
  {
    path: '/console',
    children: [
      { index: true, element: <Home /> },
      { path: 'sign-in', element: <SignIn /> },
      {
        path: 'env/:environmentId',
        element: <Shell />,
        children: [
          { index: true, element: <Home /> },
          ...activityRoutes,
          ...workflowsRoutes,
          ...subscribersRoutes,
          ...integrationsRoutes,
          ...layoutsRoutes,
          ...translationsRoutes,
          ...webhooksRoutes,
          ...statsRoutes,
          { path: '*', element: <NotFound /> },
        ],
      },
      { path: '*', element: <NotFound /> },
    ],
  },
]);

// An API error is shown, not retried three times: the API's answers are deterministic, and a
// failed request retried would keep a person waiting on a message they could read now.
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
