/**
 * Runs a pure computation for an actor's reply and turns an exception into a fallback reply. An
 * exception inside an XState action would stop the whole actor system — order manager included —
 * so the request/response children answer "nothing to do" instead.
 */
export function safely<T>(compute: () => T, fallback: T | ((message: string) => T)): T {
  try {
    return compute();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return typeof fallback === 'function' ? (fallback as (message: string) => T)(message) : fallback;
  }
}
