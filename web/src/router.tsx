import type { QueryClient } from '@tanstack/react-query';
import type { RouterHistory } from '@tanstack/react-router';
import { createRouter } from '@tanstack/react-router';
import { setupRouterSsrQueryIntegration } from '@tanstack/react-router-ssr-query';
import { installGermanValidationMessages } from '@schlosstreffen/shared';
import { routeTree } from './routeTree.gen';

// valibot's default messages (a form's field without a message of its own) read German, in the
// browser as in server rendering.
installGermanValidationMessages();

interface CreateAppRouterOptions {
  queryClient: QueryClient;
  /** Browser history by default; tests pass `createMemoryHistory()`. */
  history?: RouterHistory;
  /** Server rendering: the nonce the response's CSP allows for the router's hydration scripts. */
  nonce?: string;
}

export function createAppRouter({ queryClient, history, nonce }: CreateAppRouterOptions) {
  const router = createRouter({
    routeTree,
    history,
    context: { queryClient },
    // Loaders call queryClient.ensureQueryData; TanStack Query owns caching, so the router never
    // treats preloaded data as fresh on its own.
    defaultPreload: 'intent',
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    ssr: nonce ? { nonce } : undefined,
  });
  // The Router–Query integration: a server-rendered page hands the queries it rendered with (the
  // current user, …) to the browser with the router's own state, so the first client render shows
  // the same and asks for nothing again; it also provides the query client to the app.
  setupRouterSsrQueryIntegration({ router, queryClient });
  return router;
}

type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
