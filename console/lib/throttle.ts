/**
 * Coalesces refreshes: a burst of stream events (a heartbeat, a fill and a command result in the same
 * second) costs one request in flight and at most one more after it, never a request per event, and
 * two runs never overlap (an older read landing after a newer one would show a stale account).
 */
export function coalesce(run: () => Promise<void>, minGapMs: number): () => void {
  let running = false;
  let again = false;
  let last = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const start = (): void => {
    running = true;
    again = false;
    last = Date.now();
    void run().finally(() => {
      running = false;
      if (again) later();
    });
  };
  // Every deferred start asks again whether a run is in flight: one may have begun meanwhile.
  const fire = (): void => {
    timer = null;
    if (running) again = true;
    else start();
  };
  const later = (): void => {
    timer ??= setTimeout(fire, Math.max(0, minGapMs - (Date.now() - last)));
  };

  return () => {
    if (running) {
      again = true;
      return;
    }
    if (timer === null && Date.now() - last >= minGapMs) start();
    else later();
  };
}
