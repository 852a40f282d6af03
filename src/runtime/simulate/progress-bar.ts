/**
 * The simulation's progress on stderr: a bar with cycles/s, the simulated date and the time left,
 * redrawn in place at most every 200 ms on a terminal; on anything else (a CI log, a file) a plain
 * line every 10 s, so logs stay readable. Never on stdout, which carries the summary table.
 */
import { performance } from 'node:perf_hooks';

export interface ProgressBar {
  /** After each cycle; cheap enough to call every time (it reads the clock and returns). */
  update(done: number, simulatedNow: number): void;
  /** Clears the bar (the line is left for the summary). */
  finish(): void;
}

const WIDTH = 28;

export function createProgressBar(total: number, stream: NodeJS.WriteStream = process.stderr): ProgressBar {
  const tty = stream.isTTY === true;
  const interval = tty ? 200 : 10_000;
  const started = performance.now();
  let next = started + interval;
  let drawn = false;

  const render = (done: number, simulatedNow: number, wall: number): string => {
    const elapsed = Math.max(1, wall - started) / 1000;
    const rate = done / elapsed;
    const fraction = total > 0 ? Math.min(1, done / total) : 0;
    const eta = rate > 0 ? (total - done) / rate : Number.POSITIVE_INFINITY;
    const filled = Math.round(fraction * WIDTH);
    const bar = tty ? `[${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}] ` : '';
    const date = new Date(simulatedNow).toISOString().slice(0, 16).replace('T', ' ');
    return `${bar}${(fraction * 100).toFixed(0).padStart(3)}%  ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} cycles  ${Math.round(rate).toLocaleString('en-US')} cycles/s  ${date} UTC  ETA ${duration(eta)}`;
  };

  return {
    update(done, simulatedNow) {
      const wall = performance.now();
      if (wall < next) return;
      next = wall + interval;
      const line = render(done, simulatedNow, wall);
      stream.write(tty ? `\r\x1b[2K${line}` : `tcs simulate: ${line}\n`);
      drawn = tty;
    },
    finish() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}

/** A remaining time as a progress line shows it: 42s, 3m07s, 2h05m; … when unknown. */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '…';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
