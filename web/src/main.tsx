import { RouterProvider } from '@tanstack/react-router';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from './lib/query-client';
import { createAppRouter } from './router';
import './styles.css';

const queryClient = createQueryClient();
const router = createAppRouter({ queryClient });

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('Root element #root fehlt in index.html');

const root = createRoot(rootElement);
const render = () =>
  // As a transition, the first render yields to the browser every few milliseconds instead of
  // holding the main thread until the whole page is built.
  startTransition(() => {
    root.render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    );
  });

// A first page that needs no network (the landing page) is resolved before the first render, so it
// is built once, in that transition; a page that waits for the network renders at once and shows
// its pending state.
void Promise.race([router.load(), new Promise((resolve) => setTimeout(resolve, 0))]).finally(render);
