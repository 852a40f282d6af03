/**
 * A trailing-edge coalescer: many pokes in a burst become one run at most every `intervalMs`, and a
 * poke always leads to a run that starts after it, so the last state always lands. The run reads
 * the state when it runs (it is handed nothing), which is what makes "the last state wins" hold.
 * Runs never overlap: a poke during a run schedules one more after it. A run that fails is retried
 * after `retryMs` (the state it would have written may never change again, e.g. while paused).
 */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface CoalescerOptions {
  intervalMs: number;
  /** Delay before running again after a failed run; `intervalMs` × 10 by default. */
  retryMs?: number;
  run(): Promise<void>;
  /** The outcome of every run: undefined on success, the error on failure. */
  settled?(error: unknown): void;
  timers?: Timers;
}

export interface Coalescer {
  /** Something changed: run within `intervalMs` (plus any run in flight). */
  poke(): void;
  /** Runs now (cancelling a pending run) and resolves when done; for a last write on shutdown. */
  flush(): Promise<void>;
  /** No more runs; a run in flight finishes. */
  stop(): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createCoalescer(options: CoalescerOptions): Coalescer {
  const timers = options.timers ?? realTimers;
  const retryMs = options.retryMs ?? options.intervalMs * 10;
  let timer: unknown = null;
  let running: Promise<void> | null = null;
  let dirty = false;
  let stopped = false;

  const schedule = (ms: number) => {
    if (stopped || timer !== null) return;
    timer = timers.setTimeout(() => {
      timer = null;
      void runNow();
    }, ms);
  };

  const runNow = async (): Promise<void> => {
    if (running) {
      dirty = true;
      return running;
    }
    dirty = false;
    let failed = false;
    running = options
      .run()
      .then(
        () => options.settled?.(undefined),
        (err: unknown) => {
          failed = true;
          options.settled?.(err);
        },
      )
      .finally(() => {
        running = null;
        if (failed) schedule(retryMs);
        else if (dirty) schedule(options.intervalMs);
      });
    return running;
  };

  return {
    poke() {
      if (running) dirty = true;
      else schedule(options.intervalMs);
    },
    async flush() {
      if (timer !== null) {
        timers.clearTimeout(timer);
        timer = null;
      }
      await running;
      await runNow();
    },
    stop() {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
