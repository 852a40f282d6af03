/**
 * Store faults told by the notifier itself. The store is where the notifier reads the trail and
 * keeps its outbox, so a notice about the store cannot go through it: each round reports whether its
 * reads and writes worked, the debounce (domain/notifications/store-fault.ts, on the monotonic clock
 * handed in) decides when to tell, and the notice is queued in an outbox held in memory (the caller's
 * NotifyOutbox, adapters/notify/memory-outbox.ts) that deliverDue posts and retries like any other.
 */
import { observeStore, STORE_WATCH_START } from '../domain/notifications/store-fault.js';
import type { StoreWatch } from '../domain/notifications/store-fault.js';
import type { NotifyOutbox } from '../ports/notify-outbox.js';
import { deliveriesOf } from './notify-pump.js';
import type { NotifyTarget } from './notify-pump.js';

export interface StoreFaultNoticesOptions {
  targets: readonly NotifyTarget[];
  /** Held in memory: never the store's. */
  outbox: NotifyOutbox;
  debounceMs: number;
  /** Monotonic milliseconds (performance.now): how long a failure has lasted. */
  monoMs: () => number;
  /** Wall time, only for what the notice shows. */
  nowMs: () => number;
}

export class StoreFaultNotices {
  private watch: StoreWatch = STORE_WATCH_START;

  constructor(private readonly options: StoreFaultNoticesOptions) {}

  /** The round's outcome: null when its reads and writes of the store worked, else what failed. */
  async observe(failure: unknown, seq: number): Promise<string | null> {
    const { options } = this;
    const seen = failure === null ? { ok: true as const } : { ok: false as const, cause: causeOf(failure) };
    const step = observeStore(
      this.watch,
      seen,
      options.monoMs(),
      new Date(options.nowMs()).toISOString(),
      options.debounceMs,
      seq,
    );
    this.watch = step.watch;
    if (!step.notice) return null;
    await options.outbox.enqueue(await options.outbox.cursor(), deliveriesOf([step.notice], options.targets));
    return step.notice.kind;
  }

  /** True while a told fault has not ended. */
  faulted(): boolean {
    return this.watch.phase === 'faulted';
  }
}

/**
 * The error's message, cut short, without the store's address: it is posted to receivers that may be
 * a chat service, and where the store lives is none of their business (store errors mask passwords,
 * not hosts or paths).
 */
function causeOf(failure: unknown): string {
  const message = (failure instanceof Error ? failure.message : String(failure))
    .replace(/rediss?:\/\/\S+( \(prefix [^)]*\))?/g, '(store)')
    .replace(/sqlite:[^\s:]*/g, '(store)');
  return message.length > 300 ? `${message.slice(0, 299)}…` : message;
}
