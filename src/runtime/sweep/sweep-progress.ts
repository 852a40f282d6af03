/**
 * A sweep's progress on stderr: trials done, trials per minute and the time left, drawn as
 * simulate's bar is (progress-bar.ts): redrawn in place at most every 200 ms on a terminal, a plain
 * line every 10 s on anything else, nothing with --quiet.
 */
import { performance } from 'node:perf_hooks';
import { duration } from '../simulate/progress-bar.js';

export interface SweepProgress {
  update(done: number): void;
  finish(): void;
}

const WIDTH = 28;

export function createSweepProgress(total: number, stream: NodeJS.WriteStream = process.stderr): SweepProgress {
  const tty = stream.isTTY === true;
  const interval = tty ? 200 : 10_000;
  const started = performance.now();
  let next = started;
  let drawn = false;
  const draw = (done: number) => {
    const elapsed = Math.max(1, performance.now() - started) / 1000;
    const rate = done / elapsed;
    const eta = rate > 0 ? (total - done) / rate : Number.POSITIVE_INFINITY;
    const fraction = total > 0 ? done / total : 1;
    const filled = Math.round(fraction * WIDTH);
    const bar = tty ? `[${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}] ` : '';
    const line = `${bar}${(fraction * 100).toFixed(0).padStart(3)}%  ${done}/${total} trials  ${(rate * 60).toFixed(1)} trials/min  ETA ${duration(eta)}`;
    stream.write(tty ? `\r\x1b[2K${line}` : `tcs sweep: ${line}\n`);
    drawn = tty;
  };
  return {
    update(done) {
      const now = performance.now();
      // A non-terminal gets its first line after the first trial, then one every 10 s.
      if (now < next && done < total) return;
      next = now + interval;
      draw(done);
    },
    finish() {
      if (drawn) stream.write('\r\x1b[2K');
      drawn = false;
    },
  };
}
