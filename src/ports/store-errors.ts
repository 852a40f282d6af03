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

/** Why a store that answered is not trusted. */
export type StoreFaultKind = 'empty' | 'replaced' | 'rolled_back';

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

/** True for either store failure (as opposed to a bug). */
export function isStoreFailure(err: unknown): err is StoreUnavailableError | StoreFaultError {
  return err instanceof StoreUnavailableError || err instanceof StoreFaultError;
}
