/**
 * A read of the account (balance, positions, open orders) that gets through an exchange's 503s
 * (issue 32): a read changes nothing, so one answered by a transient server error (-1001 "Internal
 * error", a 5xx, a dropped connection) is sent again at once-ish — READ_TRIES in all, 100 ms doubling
 * between them. Without it every decision that needs the whole account (a flatten's, a cycle's) fails
 * whenever any one of its several reads does: at 50 % 503s, 1 in 16 accounts would be read. A rate
 * limit or ban is never retried here (the request gate and its Retry-After decide when to send again),
 * nor a refusal (keys, clock, a bad request): those fail as before.
 */
import { failureKind } from './exchange-errors.js';
import type { CcxtErrorClasses } from './exchange-errors.js';

const READ_TRIES = 4;
const FIRST_WAIT_MS = 100;

export async function readRetried<T>(
  read: () => Promise<T>,
  errors: CcxtErrorClasses,
  sleep: (ms: number) => Promise<void>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (err) {
      const transient =
        failureKind(err, errors) === 'unknown' &&
        (err instanceof errors.NetworkError || err instanceof errors.OperationFailed);
      if (!transient || attempt >= READ_TRIES) throw err;
      await sleep(FIRST_WAIT_MS * 2 ** (attempt - 1));
    }
  }
}
