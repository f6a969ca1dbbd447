import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import type { CurrentUser } from '@schlosstreffen/shared/api';
import { createAppRouter } from '../../router';
import { SIGNED_IN_USER, type RecordedCall } from '../../test/screen-helpers';

/** Test support for the wizard and edit page: a scripted fetch and the app router. */

type ReplyValue = { status?: number; body?: unknown };
type Reply = ReplyValue | ((call: RecordedCall) => ReplyValue | Promise<ReplyValue>);

/**
 * Stubs `fetch` with replies by "METHOD /path" (exact) and records every call. Unknown calls answer
 * 404 with a German message.
 */
export function stubApi(routes: Record<string, Reply>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const call: RecordedCall = {
      method,
      path: url.pathname,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    const reply = await (typeof route === 'function'
      ? route(call)
      : (route ?? { status: 404, body: { message: 'Nicht gefunden.' } }));
    const status = reply.status ?? 200;
    if (status === 204 || reply.body === undefined)
      return new Response(null, { status: status === 200 ? 204 : status });
    return new Response(JSON.stringify(reply.body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    /** Calls other than reads. */
    writes: () => calls.filter((call) => call.method !== 'GET'),
  };
}

/** A reply that waits until `release` is called, to look at pending states. */
export function deferredReply(value: ReplyValue) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    reply: async () => {
      await gate;
      return value;
    },
    release: () => release(),
  };
}

export const lena: CurrentUser = {
  ...SIGNED_IN_USER,
  id: '7d3f0c1e-1c2b-4c55-9a0e-2f7d1b0a4e11',
  createdAt: '2026-01-10T10:00:00.000Z',
  updatedAt: '2026-01-10T10:00:00.000Z',
};

/**
 * What jsdom lacks and the app touches: window.scrollTo (router scroll restoration) and PointerEvent
 * (Ark's press handling).
 */
export function installDomShims() {
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  if (typeof window.PointerEvent !== 'function') {
    class PointerEventShim extends MouseEvent {
      readonly pointerId: number;
      readonly pointerType: string;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.pointerId = init.pointerId ?? 1;
        this.pointerType = init.pointerType ?? 'mouse';
      }
    }
    vi.stubGlobal('PointerEvent', PointerEventShim);
  }
}

export async function renderRoute(path: string) {
  const router = createAppRouter({
    queryClient: createQueryClient(),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  await router.load();
  const view = render(<RouterProvider router={router} />);
  return { router, ...view };
}

export function jpeg(name: string): File {
  return new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])], name, { type: 'image/jpeg' });
}
