/**
 * Opening Redis connections safely: a description and error messages with the password masked,
 * an `error` listener on every connection (without one, Node would crash the process on the first
 * connection error), and a throttled default reporter so a Redis outage does not flood the log.
 */
import { Redis } from 'ioredis';

export type ErrorReporter = (err: Error) => void;

/** The URL with any password (user info or `?password=`) replaced by `***`, plus the prefix. */
export function describeRedis(url: string, prefix: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
    return `${parsed.toString()} (prefix ${prefix})`;
  } catch {
    return `redis (unparseable URL) (prefix ${prefix})`;
  }
}

/** The secrets in `url` that must never appear in a log line. */
function secretsOf(url: string): string[] {
  try {
    const parsed = new URL(url);
    const raw = [parsed.password, parsed.searchParams.get('password') ?? ''];
    return [...raw, ...raw.map(safeDecode)].filter((secret) => secret.length > 0);
  } catch {
    return [];
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Returns a function that masks the URL's secrets in any message. */
export function redactorFor(url: string): (message: string) => string {
  const secrets = secretsOf(url);
  return (message) => secrets.reduce((text, secret) => text.split(secret).join('***'), message);
}

/** Logs at most one line per distinct message every 30 s, to stderr, with secrets masked. */
export function defaultErrorReporter(description: string, redact: (message: string) => string): ErrorReporter {
  const lastLogged = new Map<string, number>();
  return (err) => {
    const message = redact(err.message);
    const now = performance.now(); // monotonic: a clock step must neither silence nor repeat a line
    if (now - (lastLogged.get(message) ?? -Infinity) < 30_000) return;
    lastLogged.set(message, now);
    process.stderr.write(
      `${JSON.stringify({ level: 'warn', component: 'redis-store', store: description, msg: message })}\n`,
    );
  };
}

/** A main connection, not yet connected (the caller awaits `connect()` to fail fast at startup). */
export function createConnection(url: string, report: ErrorReporter, timeoutMs: number): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5_000,
    // The deadline of every command, also one stuck on a server that accepts connections but does
    // not answer (paused, swapping): without it a command waits for as long as the server sleeps.
    commandTimeout: timeoutMs,
    // While the connection is down, fail a command at once instead of queueing it until a
    // reconnect that may take seconds: the caller answers 503 now, and the trading process halts.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Reconnect quickly and keep trying at least every second, so a store that is back is used again soon.
    retryStrategy: (attempt) => Math.min(50 * attempt, 1_000),
  });
  attachErrorListener(client, report);
  return client;
}

export function attachErrorListener(client: Redis, report: ErrorReporter): void {
  client.on('error', (err: unknown) => report(err instanceof Error ? err : new Error(String(err))));
}
