/**
 * Which ioredis errors mean "Redis is not available to us" (a StoreUnavailableError, answered 503)
 * rather than a bug in our commands (left as is, a 500): the connection is down, refused or
 * closed, a command passed its deadline, or the server refused the write for its own reasons
 * (read-only replica, out of memory, no replicas, persistence errors, loading, busy script,
 * authentication). Messages are redacted, since a connection error may quote the URL.
 *
 * A refusal inside MULTI reaches us as `EXECABORT Transaction discarded because of previous errors`
 * with the refusals themselves in `previousErrors` (out of memory refuses every command queued in a
 * MULTI, reads included): the transaction is judged by those causes, and its message names them, so
 * the operator reads "OOM command not allowed", not a bare EXECABORT (or a 500).
 */
import { StoreUnavailableError } from '../../ports/store-errors.js';

/** The server's refusal codes, each with what it means in words for the operator reading the 503. */
const SERVER_REFUSALS: Record<string, string> = {
  READONLY: 'Redis is a read-only replica',
  OOM: 'Redis is out of memory (maxmemory reached with noeviction): it refuses writes until memory is freed or maxmemory raised',
  NOREPLICAS: 'Redis has fewer replicas than min-replicas-to-write',
  MISCONF: 'Redis refuses writes since its last snapshot to disk failed',
  BUSY: 'Redis is busy running a script',
  LOADING: 'Redis is loading its data set into memory',
  MASTERDOWN: 'the Redis replica lost its master',
  NOAUTH: 'Redis refused our credentials',
  WRONGPASS: 'Redis refused our credentials',
};
const CONNECTION_CODES = [
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'ENETUNREACH',
];
const CONNECTION_MESSAGES = [/^Command timed out/, /^Connection is closed/, /^Stream isn't writeable/, /^connect /];

export function redisFailure(
  description: string,
  redact: (message: string) => string,
): (err: unknown) => StoreUnavailableError | null {
  return (err) => {
    if (!(err instanceof Error)) return null;
    if (isReply(err) && err.message.startsWith('EXECABORT')) {
      const causes = (err as { previousErrors?: unknown }).previousErrors;
      const refusals = Array.isArray(causes) ? causes.filter((cause): cause is Error => isRefusal(cause)) : [];
      if (refusals.length === 0) return null; // a queued command Redis did not know: our bug, a 500
      const reasons = [...new Set(refusals.map(explained))].join('; ');
      return new StoreUnavailableError(`redis ${description}: a transaction was refused: ${redact(reasons)}`);
    }
    if (isRefusal(err)) return new StoreUnavailableError(`redis ${description}: ${redact(explained(err))}`);
    return isConnectionFailure(err) ? new StoreUnavailableError(`redis ${description}: ${redact(err.message)}`) : null;
  };
}

/** The meaning in words, then the server's own reply: "Redis is out of memory (…): OOM command not allowed …". */
function explained(refusal: Error): string {
  const word = refusalCode(refusal);
  return word === undefined ? refusal.message : `${SERVER_REFUSALS[word]}: ${refusal.message}`;
}

function refusalCode(err: Error): string | undefined {
  return Object.keys(SERVER_REFUSALS).find((word) => err.message.startsWith(word));
}

function isReply(err: unknown): err is Error {
  return err instanceof Error && err.name === 'ReplyError';
}

/** The server's own refusal (a reply starting with one of its refusal codes). */
function isRefusal(err: unknown): boolean {
  return isReply(err) && refusalCode(err) !== undefined;
}

function isConnectionFailure(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    err.name === 'AbortError' ||
    (typeof code === 'string' && CONNECTION_CODES.includes(code)) ||
    CONNECTION_MESSAGES.some((pattern) => pattern.test(err.message))
  );
}
