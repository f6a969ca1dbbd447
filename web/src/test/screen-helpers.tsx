import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, vi } from 'vitest';
import { toaster } from '../components/ui/toaster';
import { createQueryClient } from '../lib/query-client';
import { createAppRouter } from '../router';

/** Test support for the account and visitor screens: a fetch stand-in and the app router at a path. */

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
}

type Reply = { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>;
export type Handlers = Record<string, (body: unknown) => Reply>;
export type User = ReturnType<typeof userEvent.setup>;

export const SIGNED_IN_USER = {
  id: 'u-1',
  email: 'lena.weber@example.de',
  firstName: 'Lena',
  lastName: 'Weber',
  profileImageUrl: null,
  phone: null,
  instagramHandle: null,
  role: 'user',
  consentMedia: false,
  consentQuartett: false,
  consentContact: false,
  emailVerified: true,
  pendingEmail: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
} as const;

/**
 * Replaces fetch: `handlers` answer by "METHOD /path" (query string ignored); unknown calls answer
 * 404, and GET /api/auth/user answers 401 (signed out) unless a handler says otherwise.
 */
export function mockApi(handlers: Handlers = {}) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path: url.pathname, body });
    const key = `${method} ${url.pathname}`;
    const handler =
      handlers[key] ??
      (key === 'GET /api/auth/user'
        ? () => ({ status: 401, body: { message: 'Bitte melde dich an.' } })
        : undefined);
    const reply = handler ? await handler(body) : { status: 404, body: { message: 'Nicht gefunden.' } };
    const status = reply.status ?? 200;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    /** Calls other than the current-user reads. */
    writes: () => calls.filter((call) => call.method !== 'GET'),
  };
}

/** Signed in as SIGNED_IN_USER, with `handlers` for the rest. */
export function mockSignedIn(handlers: Handlers = {}) {
  return mockApi({ 'GET /api/auth/user': () => ({ body: SIGNED_IN_USER }), ...handlers });
}

/**
 * Signed out until `route` (e.g. 'POST /api/auth/login') is called, signed in as SIGNED_IN_USER
 * from then on; `reply` may hold that call's answer back.
 */
export function mockSigningIn(route: string, reply?: Reply) {
  let signedIn = false;
  return mockApi({
    [route]: () => {
      signedIn = true;
      return reply ?? { body: SIGNED_IN_USER };
    },
    'GET /api/auth/user': () => (signedIn ? { body: SIGNED_IN_USER } : { status: 401 }),
    'GET /api/vehicles': () => ({ body: [] }),
  });
}

/** A handler that answers `status` with the server's German `message`. */
export function failWith(status: number, message: string) {
  return () => ({ status, body: { message } });
}

/** A handler for a server that cannot be reached. */
export const unreachable = () => Promise.reject(new TypeError('Failed to fetch'));

/** A reply that waits until `release` is called, to look at pending states. */
export function deferred(reply: { status?: number; body?: unknown }) {
  let release!: () => void;
  const promise = new Promise<{ status?: number; body?: unknown }>((resolve) => {
    release = () => resolve(reply);
  });
  return { promise, release };
}

export async function renderAt(path: string) {
  const queryClient = createQueryClient();
  const router = createAppRouter({
    queryClient,
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  await router.load();
  render(<RouterProvider router={router} />);
  return { router, queryClient, user: userEvent.setup() };
}

/** Per test: scrolling stubbed (jsdom has none), then everything undone, toasts included. */
export function setupScreenTests(): void {
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    // The toast store lives in the module: without this a toast would outlast its test.
    toaster.remove();
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });
}

/** The error message tied to a field (aria-describedby), or null. */
export function errorOf(input: HTMLElement): string | null {
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids
    .map((id) => document.getElementById(id))
    .find((el) => el?.getAttribute('role') === 'alert');
  return error?.textContent ?? null;
}

/** Waits for a toast with this title (and, when given, containing `text`) and returns its text. */
export async function findToast(title: string, text?: string): Promise<string> {
  // A toast on screen leaves first (max one at a time): under load that can take longer than the default second.
  return waitFor(
    () => {
      const toast = screen
        .queryAllByTestId('toast')
        .find((el) => within(el).queryByText(title) && (!text || el.textContent?.includes(text)));
      if (!toast) throw new Error(`no toast "${title}"${text ? ` with "${text}"` : ''}`);
      return toast.textContent ?? '';
    },
    { timeout: 4000 },
  );
}

/** The input labelled exactly `label` (a required field's label ends in ' *'). */
export function input(label: string): HTMLInputElement {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return screen.getByLabelText(new RegExp(`^${escaped}( \\*)?$`));
}

export async function findInput(label: string): Promise<HTMLInputElement> {
  return waitFor(() => input(label));
}
