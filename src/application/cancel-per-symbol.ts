/**
 * A cancel that gets through an exchange's bad day (issue 32): each symbol is cancelled on its own,
 * all at once, and each is retried after a failure with a backoff of seconds (250 ms doubling to
 * 2 s, CANCEL_TRIES in all: about 6 s), so one symbol answered 503 never holds up another, and a
 * kill's cancels are not left to the command's 30 s lease. What a symbol still fails after its tries
 * is an error naming it (the command is then retried after its lease, as before); the symbols that
 * succeeded stay cancelled (a cancel-all is idempotent, so a later retry of them is harmless).
 * The venue call itself is order-execution.ts's (the one module that calls the venue's mutators).
 */
import type { VenueOrder } from '../domain/orders.js';

const CANCEL_TRIES = 6;
const FIRST_WAIT_MS = 250;
const WAIT_CAP_MS = 2_000;

export type Sleep = (ms: number) => Promise<void>;

/** Cancels `symbols` (null: every symbol the venue trades, in one call) with retries per symbol. */
export async function cancelPerSymbol(
  cancelAll: (symbols?: readonly string[]) => Promise<VenueOrder[]>,
  symbols: readonly string[] | null,
  sleep: Sleep,
): Promise<VenueOrder[]> {
  if (symbols === null) return retried(() => cancelAll(), sleep);
  const results = await Promise.allSettled(symbols.map((s) => retried(() => cancelAll([s]), sleep)));
  const failed = symbols.filter((_, i) => results[i]!.status === 'rejected');
  if (failed.length > 0) {
    const first = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    throw new Error(
      `cancel failed for ${failed.join(', ')} after ${CANCEL_TRIES} tries: ${(first.reason as Error)?.message ?? String(first.reason)}`,
    );
  }
  return results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
}

async function retried<T>(call: () => Promise<T>, sleep: Sleep): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (attempt >= CANCEL_TRIES) throw err;
      await sleep(Math.min(WAIT_CAP_MS, FIRST_WAIT_MS * 2 ** (attempt - 1)));
    }
  }
}
