import { RouterProvider } from '@tanstack/react-router';
import { RouterClient } from '@tanstack/react-router/ssr/client';
import { startTransition, StrictMode, useEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { seedCurrentUser } from './lib/current-user';
import { createQueryClient } from './lib/query-client';
import { createAppRouter } from './router';

declare global {
  interface Window {
    /** Set by the router's hydration scripts of a server-rendered page. */
    $_TSR?: unknown;
  }
}

/** Resolves once React has committed the app for the first time. */
function Committed({ onCommit, children }: { onCommit: () => void; children: ReactNode }) {
  useEffect(onCommit, [onCommit]);
  return children;
}

/**
 * Starts the app in `rootElement`: hydrates a server-rendered page (the markup on screen stays as
 * it is), or renders a page the server left to the browser. Resolves when the app is live.
 */
export function startApp(rootElement: HTMLElement): Promise<void> {
  const queryClient = createQueryClient();
  const router = createAppRouter({ queryClient });
  // Live once committed and the router has settled its first load (a navigation started while that
  // load runs would be overtaken by it).
  const settled = () =>
    new Promise<void>((done) => {
      const deadline = performance.now() + 2000;
      const check = () => {
        if (router.state.status === 'idle' || performance.now() > deadline) done();
        else requestAnimationFrame(check);
      };
      check();
    });
  return new Promise<void>((committed) => {
    const resolve = () => void settled().then(committed);
    const app = (node: ReactNode) => (
      <StrictMode>
        <Committed onCommit={resolve}>{node}</Committed>
      </StrictMode>
    );
    if (window.$_TSR) {
      // As a transition, hydration yields to the browser every few milliseconds.
      startTransition(() => {
        hydrateRoot(rootElement, app(<RouterClient router={router} />));
      });
      return;
    }
    seedCurrentUser(queryClient);
    const root = createRoot(rootElement);
    const render = () =>
      startTransition(() => {
        root.render(app(<RouterProvider router={router} />));
      });
    // A first page that needs no network is resolved before the first render, so it is built once;
    // a page that waits for the network renders at once and shows its pending state.
    void Promise.race([router.load(), new Promise((resolve) => setTimeout(resolve, 0))]).finally(render);
  });
}
