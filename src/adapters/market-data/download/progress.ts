/**
 * Download progress on stderr: a bar redrawn in place when stderr is a terminal, otherwise plain
 * lines (at most one a second per task, and one when it ends) so logs and CI output stay readable.
 */

export interface ProgressSink {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface Progress {
  /** `done` of `total` units of `task` (e.g. "BTCUSDT candles"), `at` the time reached. */
  update(task: string, done: number, total: number, at: number | null): void;
  /** The task is over: its last line or bar stays. */
  finish(task: string, done: number, total: number, note?: string): void;
}

const BAR_WIDTH = 30;

export function createProgress(sink: ProgressSink, now: () => number = Date.now): Progress {
  const lastLine = new Map<string, number>();
  const text = (task: string, done: number, total: number, at: number | null): string => {
    const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 100;
    const when = at === null ? '' : ` through ${new Date(at).toISOString().slice(0, 16)}Z`;
    return `${task} ${done}/${total} (${pct}%)${when}`;
  };
  return {
    update(task, done, total, at) {
      if (sink.isTTY) {
        const filled = total > 0 ? Math.round((Math.min(done, total) / total) * BAR_WIDTH) : BAR_WIDTH;
        const bar = `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
        const line = `${bar} ${text(task, done, total, at)}`.slice(0, (sink.columns ?? 100) - 1);
        sink.write(`\r\x1b[2K${line}`);
        return;
      }
      const t = now();
      if (t - (lastLine.get(task) ?? -Infinity) < 1_000) return;
      lastLine.set(task, t);
      sink.write(`download: ${text(task, done, total, at)}\n`);
    },
    finish(task, done, total, note) {
      const line = `${text(task, done, total, null)}${note ? ` — ${note}` : ''}`;
      sink.write(sink.isTTY ? `\r\x1b[2K${line}\n` : `download: ${line}\n`);
    },
  };
}
