// The server's one logger (pino): a JSON line per request (written by the listener, http/observe.ts)
// and per server event (start, generation swap, facilitator errors, refusals, held-state warm-up).
// LOG_LEVEL sets the level. Pretty lines (pino-pretty) when stdout is a terminal, JSON lines otherwise.
// No secret is logged: URLs lose their userinfo and query (redactUrl), and the paths below are censored
// wherever an object carrying them is logged.
import { createRequire } from 'node:module';
import pino, { type DestinationStream, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { ConfigError } from './configError.ts';

/** pino-pretty, loaded only for pretty lines (a terminal): a server logging JSON, a CLI and a test never load it. */
const prettyStream = (options: PinoPretty.PrettyOptions): PinoPretty.PrettyStream =>
  (createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty)(options);

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A bad LOG_LEVEL: refused at start like any other setting. */
export class LogConfigError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'LogConfigError';
  }
}

/** LOG_LEVEL (default info), one of LOG_LEVELS. */
export function logLevelFromEnv(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const raw = env.LOG_LEVEL?.trim().toLowerCase();
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVELS.find((name) => name === raw);
  if (!level) throw new LogConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  return level;
}

/**
 * Fields that hold secrets, censored wherever a logged object carries them. Named paths only: a
 * wildcard path costs pino some 17 microseconds per line, more than the rest of a request line.
 */
export const REDACTED_PATHS = [
  'authorization', 'headers', 'password', 'secret', 'payload', 'signature', 'databaseUrl',
  'err.headers', 'err.config.headers', 'err.request.headers', 'err.response.headers', 'err.cause.headers',
  'settings.databaseUrl', 'settings.facilitator.headers', 'facilitator.headers', 'facilitator.cdp',
];

export interface LoggerOptions {
  level?: LogLevel;
  /** Where lines go (tests pass a stream and read the lines); default stdout. */
  destination?: DestinationStream;
  /** Pretty lines (pino-pretty, one per line) instead of JSON; default: when lines go to stdout and it is a terminal. */
  pretty?: boolean;
}

/** Addresses inside a text (an error's message or stack) lose their user, password, query and fragment. */
export function redactUrlsIn(text: string): string {
  return text.replace(/\b((?:https?|postgres(?:ql)?|wss?):\/\/)(?:[^\s/?#@]*@)?([^\s?#]*)(?:[?#]\S*)?/gi, '$1$2');
}

/** Strings anywhere in a serialized error (message, stack, causes) with their addresses redacted. */
function scrubbed(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactUrlsIn(value);
  if (depth > 6 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubbed(item, depth + 1)]));
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const settings = {
    level: options.level ?? 'info',
    base: undefined,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: (error: unknown) => scrubbed(pino.stdSerializers.err(error as Error)) },
  };
  // pino-pretty as a stream in this thread (no worker): `npm start` in a terminal stays readable.
  if (options.pretty ?? (!options.destination && process.stdout.isTTY === true)) {
    return pino(settings, prettyStream({ colorize: !options.destination, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', destination: options.destination ?? 1 }));
  }
  return pino(settings, options.destination ?? pino.destination({ dest: 1, sync: false }));
}

/** A logger that writes nothing (the default of an app built without one: tests, the benchmark). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** A server event's fields, beside its message. */
export type EventFields = Record<string, unknown> & { event?: string };

/**
 * How the server's parts report an event: a message, the error of a failure, and the event's fields.
 * The payments, the reloader and the server take one (default: a line on the console).
 */
export type EventLog = (message: string, error?: unknown, fields?: EventFields) => void;

/** The event log over a logger: info lines, error lines (with the error) for failures. */
export function eventLogOf(logger: Logger): EventLog {
  return (message, error, fields) => {
    if (error === undefined) logger.info(fields ?? {}, message);
    else logger.error({ ...fields, err: error }, message);
  };
}

/** A URL as it may be logged or shown: its origin and path, without user, password, query and fragment. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.origin}${url.pathname.replace(/(?<!\/)\/+$/, '')}`;
  } catch {
    return '(a malformed URL)';
  }
}
