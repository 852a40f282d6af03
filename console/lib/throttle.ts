/**
 * Coalesces refreshes: a burst of stream events (a heartbeat, a fill and a command result in the same
 * second) costs one request in flight and at most one more after it, never a request per event.
 */
export function coalesce(run: () => Promise<void>, minGapMs: number): () => void {
  let running = false;
  let again = false;
  let last = 0;
  const start = (): void => {
    running = true;
    again = false;
    last = Date.now();
    void run().finally(() => {
      running = false;
      if (again) setTimeout(start, Math.max(0, minGapMs - (Date.now() - last)));
    });
  };
  return () => {
    if (running) {
      again = true;
      return;
    }
    const gap = Date.now() - last;
    if (gap >= minGapMs) start();
    else if (!again) {
      again = true;
      setTimeout(() => {
        if (!running) start();
      }, minGapMs - gap);
    }
  };
}
