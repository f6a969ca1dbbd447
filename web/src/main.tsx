import { RouterProvider } from '@tanstack/react-router';
import { RouterClient } from '@tanstack/react-router/ssr/client';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { seedCurrentUser } from './lib/current-user';
import { createQueryClient } from './lib/query-client';
import { createAppRouter } from './router';
import './styles.css';

const queryClient = createQueryClient();
const router = createAppRouter({ queryClient });

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('Root element #root fehlt in index.html');

declare global {
  interface Window {
    /** Set by the router's hydration scripts of a server-rendered page. */
    $_TSR?: unknown;
  }
}

if (window.$_TSR) {
  // Server-rendered public page: React takes over the markup that is already on screen. As a
  // transition, hydration yields to the browser every few milliseconds.
  startTransition(() => {
    hydrateRoot(
      rootElement,
      <StrictMode>
        <RouterClient router={router} />
      </StrictMode>,
    );
  });
} else {
  seedCurrentUser(queryClient);
  const root = createRoot(rootElement);
  const render = () =>
    startTransition(() => {
      root.render(
        <StrictMode>
          <RouterProvider router={router} />
        </StrictMode>,
      );
    });
  // A first page that needs no network is resolved before the first render, so it is built once;
  // a page that waits for the network renders at once and shows its pending state.
  void Promise.race([router.load(), new Promise((resolve) => setTimeout(resolve, 0))]).finally(render);
}
