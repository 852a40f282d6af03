/**
 * The kill-latency benchmark's side of its IPC channel to the trading child (kill-trader.ts): the
 * messages both ways, and an inbox that stamps each message with performance.now() the moment it
 * arrives, since that arrival is where a trial's time stops.
 */
import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export type ToTrader = { type: 'prepare'; trial: number } | { type: 'finish' };
export type FromTrader =
  | { type: 'ready'; trial: number; open: number }
  | { type: 'done'; trial: number; killedAtWallMs: number; killedToEmptyMs: number }
  | { type: 'error'; message: string };

export class Inbox {
  private readonly queue: Array<{ message: FromTrader; receivedAt: number }> = [];
  private waiter: (() => void) | null = null;
  private failure: Error | null = null;
  readonly exited: Promise<void>;

  constructor(private readonly child: ChildProcess) {
    child.on('message', (message: FromTrader) => {
      const receivedAt = performance.now();
      if (message.type === 'error') this.failure = new Error(`child: ${message.message}`);
      else this.queue.push({ message, receivedAt });
      this.waiter?.();
    });
    this.exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        if (code !== 0) this.failure ??= new Error(`kill-trader child exited (code ${code}, signal ${signal})`);
        this.waiter?.();
        resolve();
      }),
    );
  }

  send(message: ToTrader): void {
    this.child.send(message);
  }

  async next<T extends FromTrader['type']>(
    type: T,
    timeoutMs: number,
  ): Promise<{ message: Extract<FromTrader, { type: T }>; receivedAt: number }> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (this.failure) throw this.failure;
      const index = this.queue.findIndex((m) => m.message.type === type);
      if (index >= 0) {
        const [entry] = this.queue.splice(index, 1);
        return { message: entry!.message as Extract<FromTrader, { type: T }>, receivedAt: entry!.receivedAt };
      }
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no "${type}" from the child within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = null;
    }
  }
}
