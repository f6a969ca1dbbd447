/**
 * The suite's HTTP client: a cookie jar, the deployment's Origin, the api chosen round-robin (as a
 * proxy in front of several would), and a timeout on every request. Each answer is counted, so a
 * scenario can say how many requests failed and how, and whether any hung.
 */
/** Where a client sends its requests: the apis (round-robin) and the site's address (Origin). */
export interface Target {
  readonly apis: ReadonlyArray<{ readonly url: string }>;
  readonly publicUrl: string;
}

/** A JSON answer, read loosely: the suite checks the fields it needs itself. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = any;

/** No request may take longer than this; one that does counts as hung. */
export const REQUEST_TIMEOUT_MS = 15_000;

export class Tally {
  readonly statuses = new Map<number | 'hung' | 'refused', number>();
  maxMs = 0;
  /** The first few requests answered with a 5xx other than 503, for the report. */
  readonly serverErrors: string[] = [];

  add(outcome: number | 'hung' | 'refused', ms: number): void {
    this.statuses.set(outcome, (this.statuses.get(outcome) ?? 0) + 1);
    this.maxMs = Math.max(this.maxMs, ms);
  }

  count(predicate: (outcome: number | 'hung' | 'refused') => boolean): number {
    let n = 0;
    for (const [outcome, count] of this.statuses) if (predicate(outcome)) n += count;
    return n;
  }

  get total(): number {
    return this.count(() => true);
  }

  get hung(): number {
    return this.statuses.get('hung') ?? 0;
  }

  /** e.g. "200: 812, 503: 14, refused: 3". */
  toString(): string {
    return [...this.statuses]
      .sort(([a], [b]) => String(a).localeCompare(String(b)))
      .map(([outcome, n]) => `${outcome}: ${n}`)
      .join(', ');
  }
}

let next = 0;

export class Client {
  private cookie = '';

  constructor(
    private readonly deployment: Target,
    private readonly tally: Tally,
    /** Pin the client to one api (else round-robin over the live ones); `pin` changes it. */
    private pinned?: number,
  ) {}

  /** Sends the following requests, with the same cookies, to one api (undefined: round-robin). */
  pin(index: number | undefined): this {
    this.pinned = index;
    return this;
  }

  private baseUrl(): string {
    const apis = this.deployment.apis;
    const index = this.pinned ?? next++ % apis.length;
    return apis[index]!.url;
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; data: Answer; ms: number }> {
    const headers: Record<string, string> = { origin: this.deployment.publicUrl };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const started = Date.now();
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl()}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      const ms = Date.now() - started;
      const hung = (error as Error).name === 'TimeoutError';
      this.tally.add(hung ? 'hung' : 'refused', ms);
      return { status: hung ? -2 : -1, data: {}, ms };
    }
    const text = await response.text().catch(() => '');
    const ms = Date.now() - started;
    this.tally.add(response.status, ms);
    if (response.status >= 500 && response.status !== 503 && this.tally.serverErrors.length < 10) {
      this.tally.serverErrors.push(`${method} ${path} ${response.status}`);
    }
    const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]!);
    if (cookies.length) this.cookie = cookies.join('; ');
    let data: Answer;
    try {
      data = text ? JSON.parse(text) : {};
    } catch {
      data = { text };
    }
    return { status: response.status, data, ms };
  }

  /** The answer's data when it has the expected status; throws otherwise. */
  async expect(method: string, path: string, body: unknown, expected: number): Promise<Answer> {
    const res = await this.request(method, path, body);
    if (res.status !== expected) {
      throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.data).slice(0, 300)}`);
    }
    return res.data;
  }

  /** Retries a request while the answer is a refusal by a missing service (503) or no answer at all. */
  async persist(
    method: string,
    path: string,
    body: unknown,
    expected: number,
    timeoutMs = 120_000,
  ): Promise<Answer> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.request(method, path, body);
      if (res.status === expected) return res.data;
      const transient = res.status === 503 || res.status < 0;
      if (!transient || Date.now() > deadline) {
        throw new Error(
          `${method} ${path} answered ${res.status}: ${JSON.stringify(res.data).slice(0, 300)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
