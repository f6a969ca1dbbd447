import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

/**
 * The one logger of every long-running process (api, worker): JSON lines through pino, one a
 * message, levels by LOG_LEVEL, `pretty` (pino-pretty) for a person at a terminal (LOG_FORMAT).
 *
 * A person is named by their account id, never by an address; no password, token, session id or
 * cookie is ever logged. Call sites pass only such fields; pino's `redact` blanks the known names
 * should one slip in, and errors are logged through `serializeError`, which keeps their type, code,
 * message and stack only, with addresses, credentials in URLs and tokens in query strings cut out.
 *
 * Lines written while a request or a job runs carry its `requestId` (from `withLogContext`), so a
 * request and the jobs it queued (and theirs) are found by one id.
 */

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LogSettings {
  level: LogLevel;
  format: LogFormat;
}

/** What a log line carries of the request or job it was written for. */
export interface LogContext {
  requestId: string;
}

const context = new AsyncLocalStorage<LogContext>();

/** Runs `work` with every log line (and every outbox row) written meanwhile carrying `requestId`. */
export function withLogContext<T>(log: LogContext, work: () => T): T {
  return context.run(log, work);
}

/** The id of the request (or of the request behind the job) that runs now, if any. */
export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}

/** A request id from outside (a proxy's X-Request-Id) is taken when it is a plain token. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The given id when it is a sane token (at most 128 of A–Z, a–z, 0–9, '.', '_', '-'), else a new one. */
export function requestIdOf(given: string | string[] | undefined | null): string {
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** Field names whose values never reach a log line, at the top and one level down. */
const SECRET_FIELDS = [
  'password',
  'newPassword',
  'currentPassword',
  'passwordHash',
  'token',
  'resetToken',
  'secret',
  'sessionId',
  'sid',
  'cookie',
  'authorization',
  'email',
  'newEmail',
  'to',
];
export const REDACTED_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
];

const CREDENTIALS_IN_URL = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
const SECRET_PARAMS =
  /([?&;](?:token|code|key|secret|password|sid|session|signature|x-amz-signature|x-amz-credential)=)[^&\s"'<>]+/gi;
/** A statement of the ORM's error messages ("insert into … values (…) - duplicate key …"). */
const SQL_PREFIX = /^\s*(?:select|insert|update|delete|with|merge)\b[\s\S]* - /i;

/** Cuts addresses, credentials in URLs and secret query parameters out of a text. */
export function scrub(text: string): string {
  return text
    .replace(CREDENTIALS_IN_URL, '$1[redacted]@')
    .replace(EMAIL, '[email]')
    .replace(SECRET_PARAMS, '$1[redacted]');
}

export interface SerializedError {
  type: string;
  message: string;
  code?: string | number;
  stack?: string;
  cause?: SerializedError;
  errors?: SerializedError[];
}

/**
 * An error as a log line holds it: its type, code, message and the stack's frames. The message
 * is scrubbed and a failed statement's SQL (which holds the values it was given) left out; other
 * properties (a driver's `detail` and parameters, a mailer's envelope) are not logged.
 */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: scrub(String(error)) };
  const { code } = error as { code?: unknown };
  const serialized: SerializedError = {
    type: error.name || error.constructor?.name || 'Error',
    message: scrub(error.message.replace(SQL_PREFIX, '')),
  };
  if (typeof code === 'string' || typeof code === 'number') serialized.code = code;
  const frames = error.stack
    ?.split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .join('\n');
  if (frames) serialized.stack = scrub(frames);
  if (depth < 3 && error.cause !== undefined) serialized.cause = serializeError(error.cause, depth + 1);
  if (depth < 3 && error instanceof AggregateError) {
    serialized.errors = error.errors.slice(0, 5).map((inner) => serializeError(inner, depth + 1));
  }
  return serialized;
}

/**
 * Standard output, written asynchronously (sonic-boom) in blocks of at least 4 KB, so a busy api
 * writes many lines with one system call; what is buffered is written every second and when the
 * process exits, so a quiet process's lines are not held back.
 */
let stdout: ReturnType<typeof pino.destination> | undefined;
const STDOUT_BLOCK = 4096;
const STDOUT_FLUSH_MS = 1000;
const standardOutput = (): DestinationStream => {
  if (!stdout) {
    const stream = pino.destination({ dest: 1, sync: false, minLength: STDOUT_BLOCK });
    setInterval(() => {
      try {
        stream.flush();
      } catch {
        // Not ready yet or being closed: the next tick or the exit writes it.
      }
    }, STDOUT_FLUSH_MS).unref();
    stdout = stream;
  }
  return stdout;
};

const prettyOutput = (): DestinationStream =>
  pretty({ colorize: process.stdout.isTTY, sync: true, translateTime: 'SYS:HH:MM:ss.l' });

/** Before `configureLogger` runs (a failing configuration): LOG_FORMAT, else pretty in development. */
const initialOutput = (): DestinationStream => {
  const development = (process.env.NODE_ENV ?? 'development') === 'development';
  const format = process.env.LOG_FORMAT ?? (development ? 'pretty' : 'json');
  return format === 'pretty' ? prettyOutput() : standardOutput();
};

/** The stream every line goes to; tests swap it (`configureLogger`) to read what was logged. */
const sink: { target: DestinationStream | undefined; write(line: string): void } = {
  target: undefined,
  write(line) {
    (this.target ??= initialOutput()).write(line);
  },
};

/** Before `configureLogger` runs: LOG_LEVEL, else `info`; silent under tests unless LOG_LEVEL says. */
function initialLevel(): LogLevel {
  const level = process.env.LOG_LEVEL as LogLevel | undefined;
  if (level && LOG_LEVELS.includes(level)) return level;
  return process.env.NODE_ENV === 'test' ? 'silent' : 'info';
}

/** The process's logger. Children (`logger.child({ … })`) share its settings and stream. */
export const logger: Logger = pino(
  {
    level: initialLevel(),
    base: { pid: process.pid, hostname: hostname() },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    messageKey: 'msg',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError },
    mixin: () => {
      const store = context.getStore();
      return store ? { requestId: store.requestId } : {};
    },
    hooks: {
      // A message given as text is scrubbed like an error's.
      logMethod(args, method) {
        for (let i = 0; i < args.length; i += 1) {
          const arg = args[i];
          if (typeof arg === 'string') (args as unknown[])[i] = scrub(arg);
        }
        method.apply(this, args);
      },
    },
  },
  sink,
);

/**
 * Sets the level and format from the configuration and names the process (`api`, `worker`) on
 * every line. `destination` replaces the stream (tests read lines from it; they stay synchronous).
 */
export function configureLogger(
  settings: LogSettings,
  options: { process?: string; destination?: DestinationStream } = {},
): void {
  logger.level = settings.level;
  if (options.process) logger.setBindings({ process: options.process });
  sink.target = options.destination ?? (settings.format === 'pretty' ? prettyOutput() : standardOutput());
}

/** The ORM's own output (the migrator's steps) as lines of this logger: `initOrm(url, ORM_LOGGING)`. */
export const ORM_LOGGING = { logger: (message: string) => logger.info(message), colors: false };
