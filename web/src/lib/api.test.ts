import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, apiGet, apiRequest, isApiError, issueFor } from './api';

const fetchMock = vi.fn<typeof fetch>();

function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...init.headers },
  });
}

function lastRequest(): { url: string; init: RequestInit } {
  const call = fetchMock.mock.calls.at(-1);
  if (!call) throw new Error('fetch was not called');
  const [url, init] = call;
  return { url: String(url), init: init ?? {} };
}

async function catchError(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('apiRequest', () => {
  it('parses a JSON response body', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ id: 'v1', brand: 'BMW' }));

    await expect(apiGet<{ id: string; brand: string }>('/api/vehicles/v1')).resolves.toEqual({
      id: 'v1',
      brand: 'BMW',
    });
  });

  it('always includes credentials and sends a GET without a body', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse([]));

    await apiGet('/api/vehicles');

    const { url, init } = lastRequest();
    expect(url).toBe('/api/vehicles');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('include');
    expect(init.body).toBeUndefined();
    expect(init.headers).not.toHaveProperty('Content-Type');
  });

  it('sends a given body as JSON with the JSON content type', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ id: 'v2' }, { status: 201 }));

    const body = { brand: 'Audi', model: 'RS3', status: 'submitted' };
    await expect(api.post('/api/vehicles', body)).resolves.toEqual({ id: 'v2' });

    const { init } = lastRequest();
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json' });
    expect(init.body).toBe(JSON.stringify(body));
  });

  it('resolves with undefined for 204 No Content', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));

    await expect(apiRequest('DELETE', '/api/vehicles/v1')).resolves.toBeUndefined();
    expect(lastRequest().init).toMatchObject({ method: 'DELETE', credentials: 'include', body: undefined });
  });

  it('throws ApiError with the server message from the JSON body', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse({ message: 'Falsche Email oder Passwort.' }, { status: 401, statusText: 'Unauthorized' }),
    );

    const error = await catchError(api.post('/api/auth/login', { email: 'a@b.de', password: 'x' }));

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 401,
      serverMessage: 'Falsche Email oder Passwort.',
      fromBody: true,
      message: '401: Falsche Email oder Passwort.',
    });
  });

  it('keeps the field issues of a rejected body', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(
        {
          message: 'Das Passwort ist falsch.',
          issues: [{ field: 'password', message: 'Das Passwort ist falsch.' }, { field: 1 }],
        },
        { status: 400 },
      ),
    );

    const error = await catchError(api.post('/api/account/delete', { password: 'x' }));

    expect(error).toMatchObject({ issues: [{ field: 'password', message: 'Das Passwort ist falsch.' }] });
    expect(issueFor(error, 'password')).toBe('Das Passwort ist falsch.');
    expect(issueFor(error, 'email')).toBeUndefined();
    expect(issueFor(new Error('x'), 'password')).toBeUndefined();
  });

  it('falls back to the status text when the body has no message', async () => {
    fetchMock.mockResolvedValueOnce(new Response('', { status: 500, statusText: 'Internal Server Error' }));

    const error = await catchError(apiGet('/api/auth/user'));

    expect(error).toMatchObject({
      status: 500,
      serverMessage: 'Internal Server Error',
      message: '500: Internal Server Error',
    });
  });

  it('ignores JSON bodies without a message and HTML error pages', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'x' }, { status: 409, statusText: 'Conflict' }));
    await expect(apiGet('/api/x')).rejects.toMatchObject({ message: '409: Conflict' });

    fetchMock.mockResolvedValueOnce(
      new Response('<html>Bad Gateway</html>', {
        status: 502,
        statusText: 'Bad Gateway',
        headers: { 'Content-Type': 'text/html' },
      }),
    );
    await expect(apiGet('/api/x')).rejects.toMatchObject({ serverMessage: 'Bad Gateway', fromBody: false });
  });

  it('uses a plain-text body as the message', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response('Zu viele Anfragen.', {
        status: 429,
        statusText: 'Too Many Requests',
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      }),
    );

    await expect(apiGet('/api/x')).rejects.toMatchObject({ message: '429: Zu viele Anfragen.' });
  });

  it('falls back to a German text when neither body nor status text say anything', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 503 }));

    await expect(apiGet('/api/x')).rejects.toMatchObject({
      status: 503,
      serverMessage: 'Ein Fehler ist aufgetreten.',
      message: '503: Ein Fehler ist aufgetreten.',
    });
  });
});
