/**
 * Which ioredis errors mean "Redis is not available to us" (a StoreUnavailableError, answered 503)
 * rather than a bug in our commands (left as is, a 500): the connection is down, refused or
 * closed, a command passed its deadline, or the server refused the write for its own reasons
 * (read-only replica, out of memory, no replicas, persistence errors, loading, busy script,
 * authentication). Messages are redacted, since a connection error may quote the URL.
 */
import { StoreUnavailableError } from '../../ports/store-errors.js';

const SERVER_REFUSALS = [
  'READONLY',
  'OOM',
  'NOREPLICAS',
  'MISCONF',
  'BUSY',
  'LOADING',
  'MASTERDOWN',
  'NOAUTH',
  'WRONGPASS',
];
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
    const code = (err as { code?: unknown }).code;
    const unavailable =
      err.name === 'MaxRetriesPerRequestError' ||
      err.name === 'AbortError' ||
      (err.name === 'ReplyError' && SERVER_REFUSALS.some((word) => err.message.startsWith(word))) ||
      (typeof code === 'string' && CONNECTION_CODES.includes(code)) ||
      CONNECTION_MESSAGES.some((pattern) => pattern.test(err.message));
    return unavailable ? new StoreUnavailableError(`redis ${description}: ${redact(err.message)}`) : null;
  };
}
