/**
 * Deterministic client order ids: `<session>-<cycle>-<symbol>-<seq>`. Deterministic so a retried
 * submission carries the same id and the venue's idempotency makes it harmless. The session part
 * (e.g. a short id chosen once per trading-process start) keeps ids from two runs apart, since
 * cycles count from 1 again after every restart. Only [A-Za-z0-9_-] are used, which venues accept.
 */

const SESSION_PATTERN = /^[A-Za-z0-9]{1,16}$/;
const SYMBOL_PATTERN = /^[A-Z0-9]{1,20}$/;

export function newClientOrderId(session: string, cycle: number, symbol: string, seq: number): string {
  if (!SESSION_PATTERN.test(session))
    throw new RangeError(`session must be 1–16 letters or digits, got ${JSON.stringify(session)}`);
  if (!Number.isSafeInteger(cycle) || cycle < 0)
    throw new RangeError(`cycle must be a non-negative integer, got ${cycle}`);
  if (!SYMBOL_PATTERN.test(symbol))
    throw new RangeError(`symbol must be upper-case letters or digits, got ${JSON.stringify(symbol)}`);
  if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError(`seq must be a non-negative integer, got ${seq}`);
  return `${session}-${cycle}-${symbol}-${seq}`;
}
