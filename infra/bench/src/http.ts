import { API_URL, PUBLIC_URL } from './settings.js';

/** A signed-in (or anonymous) client of the api: JSON bodies, our Origin, the session cookie. */
export class Client {
  constructor(
    readonly baseUrl: string = API_URL,
    private cookie = '',
  ) {}

  async request(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { origin: PUBLIC_URL };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
    if (cookies.length) this.cookie = cookies.join('; ');
    return response;
  }

  /** A file's bytes as the body (a bank statement), with the session. */
  async upload(path: string, bytes: Uint8Array): Promise<Response> {
    const headers: Record<string, string> = {
      origin: PUBLIC_URL,
      'content-type': 'application/octet-stream',
    };
    if (this.cookie) headers.cookie = this.cookie;
    return fetch(`${this.baseUrl}${path}`, { method: 'POST', headers, body: bytes });
  }

  /** The answer's JSON; anything but the expected status throws with the server's message. */
  async json<T>(method: string, path: string, body?: unknown, expected = 200): Promise<T> {
    const response = await this.request(method, path, body);
    const text = await response.text();
    if (response.status !== expected) {
      throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    }
    return JSON.parse(text) as T;
  }

  async login(email: string, password: string): Promise<this> {
    await this.json('POST', '/api/auth/login', { email, password });
    return this;
  }

  async register(user: { email: string; password: string; firstName: string; lastName: string }) {
    return this.json<{ id: string }>('POST', '/api/auth/register', user, 201);
  }
}
