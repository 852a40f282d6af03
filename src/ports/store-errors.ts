/**
 * The two ways a store can fail a caller, shared by every adapter, the application and the API, so
 * each can be told apart from a bug (a plain Error, which stays a 500):
 *  - StoreUnavailableError: the store could not be reached, did not answer within its deadline, or
 *    refused a write (read-only). Nothing was recorded; trying again later may work.
 *  - StoreFaultError: the store answered, but it is not the store this process knew — empty, of
 *    another identity, or rolled back to an older epoch. That is a fault, never a fresh start: only
 *    an explicit, audited operator command (`tcs store adopt`) accepts such a store.
 * The API answers both with 503; the trading process halts and opens no new exposure on either.
 */

export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  readonly code = 'TCS_STORE_UNAVAILABLE';
}

/**
 * A chained write refused because the writer's wall clock is further from the store's than
 * AUDIT_CLOCK_SKEW_MS (src/domain/clock-skew.ts): nothing was recorded. A store failure for every
 * caller (the API's 503, the trading process's halt), since it cannot write until its clock is right.
 */
export class ClockSkewError extends StoreUnavailableError {
  override name = 'ClockSkewError';

  constructor(
    message: string,
    /** The store's clock when it refused (epoch ms): what a kill is stamped with instead (clock-skew.ts). */
    readonly storeMs?: number,
  ) {
    super(message);
  }
}

/**
 * Why a store that answered is not trusted: no control record, another identity, an older epoch,
 * (for a fenced write) a trading lease that passed to another process, or a control record that
 * no holder of CONTROL_SECRET wrote (no MAC, or one that does not match: src/domain/control-mac.ts).
 */
export type StoreFaultKind = 'empty' | 'replaced' | 'rolled_back' | 'fenced' | 'tampered';

export class StoreFaultError extends Error {
  override name = 'StoreFaultError';
  readonly code = 'TCS_STORE_FAULT';

  constructor(
    readonly kind: StoreFaultKind,
    message: string,
  ) {
    super(message);
  }
}

export const EMPTY_STORE_MESSAGE =
  'the store has no control record: it was never initialised (`tcs store init` creates it; `tcs start` does ' +
  'so before it serves) or it lost its data. Nothing trades on it; if it lost its data and you accept that, ' +
  'adopt it with `tcs store adopt --reason "…"`';

/**
 * A control change that kept losing the race for the record to other writers until its deadline (or
 * stood aside for a kill in progress): nothing was recorded; trying again shortly will work. Not a
 * store failure and not a bug: the API answers 503 with Retry-After.
 */
export class ControlContentionError extends Error {
  override name = 'ControlContentionError';
  readonly code = 'TCS_CONTROL_CONTENDED';
  /** Seconds after which trying again is sensible. */
  readonly retryAfterS = 1;
}

/** True for either store failure (as opposed to a bug). */
export function isStoreFailure(err: unknown): err is StoreUnavailableError | StoreFaultError {
  return err instanceof StoreUnavailableError || err instanceof StoreFaultError;
}

/** The refusal of a fenced write whose token was superseded (or that meets a store with no lease). */
export function staleFence(key: string, fence: number, current: number | undefined): StoreFaultError {
  return new StoreFaultError(
    'fenced',
    `refused to write ${key}: the trading lease's fencing token ${fence} is stale ` +
      `(the store's is ${current ?? 'absent'}): another trading process owns this store now`,
  );
}
