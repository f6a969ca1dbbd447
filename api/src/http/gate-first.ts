import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { pathOf } from './replay.js';

/**
 * The meeting day's devices: the gate's routes (the devices' sync, the online check-in, the gate
 * list) and the jury's (the judges' view and sync).
 */
const GATE_ROUTE = /^\/api\/(admin\/check-in|jury)(\/|$)/;

/**
 * The gate before anonymous page traffic in one api process. A gate request waits on the event loop
 * for each of its database round trips; under a spike every turn of the loop answers every kept page
 * whose request arrived, so each round trip waits for dozens of answers. While a request of a staff
 * session to a gate route is in flight, answers from memory (kept pages, built files) are therefore
 * given at most `perTurn` per turn of the event loop, the rest in the next turns in arrival order:
 * the gate's round trips are handled between them. The judges' phones count as gates. With no gate
 * request in flight, answers go out at once, as before.
 */
export class GateFirst {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  constructor(
    private readonly sessionCookie: string,
    private readonly perTurn = 8,
  ) {}

  /** Whether a gate request is in flight now. */
  get busy(): boolean {
    return this.inFlight > 0;
  }

  /** Counts a gate request of a session (a request without the session cookie cannot be staff). */
  track(req: IncomingMessage, res: ServerResponse): void {
    if (!GATE_ROUTE.test(pathOf(req.url ?? '/')) || !req.headers.cookie?.includes(`${this.sessionCookie}=`)) {
      return;
    }
    this.inFlight += 1;
    res.once('close', () => {
      this.inFlight -= 1;
    });
  }

  /** Gives an answer from memory now, or while the gate is busy in a later turn of the event loop. */
  answer(give: () => void): void {
    if (!this.inFlight && !this.waiting.length) {
      give();
      return;
    }
    this.waiting.push(give);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  }

  private readonly drain = (): void => {
    const batch = this.waiting.splice(0, this.inFlight ? this.perTurn : this.waiting.length);
    for (const give of batch) give();
    if (this.waiting.length) setImmediate(this.drain);
    else this.scheduled = false;
  };

  /** The listener that counts gate requests before handing every request to `next`. */
  listener(next: RequestListener): RequestListener {
    return (req, res) => {
      this.track(req, res);
      next(req, res);
    };
  }
}
