/** A small HTTP client with a cookie jar, for driving the API like a browser would. */
export class TestClient {
  private readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    private readonly defaults: { origin?: string } = {},
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookies(from: TestClient): void {
    for (const [name, value] of from.cookies) this.cookies.set(name, value);
  }

  async request(
    method: string,
    path: string,
    options: { json?: unknown; body?: string; headers?: Record<string, string> } = {},
  ): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader;
    if (this.defaults.origin && !('origin' in headers) && method !== 'GET')
      headers.origin = this.defaults.origin;
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      const expired = attributes.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.trim());
    }
    const text = await response.text();
    return { status: response.status, headers: response.headers, data: parseBody(text), text };
  }

  get = (path: string, headers?: Record<string, string>) => this.request('GET', path, { headers });
  post = (path: string, json?: unknown, headers?: Record<string, string>) =>
    this.request('POST', path, { json: json ?? {}, headers });
  patch = (path: string, json?: unknown) => this.request('PATCH', path, { json: json ?? {} });
  put = (path: string, json?: unknown) => this.request('PUT', path, { json: json ?? {} });
  delete = (path: string) => this.request('DELETE', path);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function parseBody(text: string): Record<string, any> {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return { text };
  }
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: Record<string, any>;
  text: string;
}
