/**
 * What a child of `tcs start` tells its supervisor over the IPC channel the supervisor opens: that
 * the API listens (the trading process starts only then, so a system whose API cannot serve never
 * trades), and why it is about to exit (so the launcher's last line can name the child and the
 * reason). Outside a supervisor there is no channel and telling is a no-op.
 */

export type ChildMessage = { type: 'listening'; address: string } | { type: 'exiting'; code: number; message: string };

export function isChildMessage(value: unknown): value is ChildMessage {
  const m = value as Partial<ChildMessage> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    ((m.type === 'listening' && typeof m.address === 'string') ||
      (m.type === 'exiting' && typeof m.code === 'number' && typeof m.message === 'string'))
  );
}

/** True when this process runs under `tcs start`. */
export function isSupervised(): boolean {
  return typeof process.send === 'function' && process.connected;
}

/** Sends `message` and resolves once it is written (never rejects: the supervisor may be gone). */
export function tellSupervisor(message: ChildMessage): Promise<void> {
  if (!isSupervised()) return Promise.resolve();
  return new Promise((resolve) => process.send!(message, undefined, {}, () => resolve()));
}
