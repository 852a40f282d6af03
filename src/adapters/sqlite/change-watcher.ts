/**
 * Cross-process change notification for SQLite. SQLite has no pub/sub, but `PRAGMA data_version`
 * changes whenever ANOTHER connection commits, and reading it costs microseconds; so while anyone is
 * subscribed we poll it and, when it moves, look at what the subscribers care about (the control
 * epoch, the newest command). Writes on this connection do not move data_version, so the stores call
 * `localWrite()` after committing. The timer is unref()'d and exists only while there are subscribers.
 * A look that fails is made again at the next poll (a look that met another connection's lock says
 * nothing; any other failure is reported once), so no change is lost to one failed read.
 */
import type { ControlRecord } from '../../domain/control.js';
import type { SqliteDatabase } from './connection.js';
import { isLockBusy } from './lock-wait.js';

export interface WatchedState {
  readControl(): ControlRecord;
  /** The highest command `ord`, 0 when none. */
  lastCommandOrd(): number;
}

type ControlListener = (record: ControlRecord) => void;
type CommandListener = () => void;

export class ChangeWatcher {
  private readonly controlListeners = new Set<ControlListener>();
  private readonly commandListeners = new Set<CommandListener>();
  private readonly dataVersion;
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastDataVersion = 0;
  private lastEpoch = 0;
  private lastOrd = 0;
  /** A look that did not complete: the next poll looks again even if data_version did not move. */
  private unchecked = false;
  private closed = false;

  constructor(
    db: SqliteDatabase,
    private readonly state: WatchedState,
    private readonly pollIntervalMs: number,
    private readonly onError: (err: unknown) => void,
  ) {
    this.dataVersion = db.prepare<[], { data_version: number }>('PRAGMA data_version');
  }

  subscribeControl(listener: ControlListener): () => void {
    return this.add(this.controlListeners, listener);
  }

  subscribeCommands(listener: CommandListener): () => void {
    return this.add(this.commandListeners, listener);
  }

  /**
   * Called after a commit on this connection, which data_version does not report to itself. Never
   * throws: the writer's commit stands whatever the look finds; a failed look is left to the poll.
   */
  localWrite(): void {
    if (this.timer === undefined) return;
    try {
      this.check();
    } catch {
      this.unchecked = true;
    }
  }

  close(): void {
    this.closed = true;
    this.stop();
    this.controlListeners.clear();
    this.commandListeners.clear();
  }

  private add<L>(set: Set<L>, listener: L): () => void {
    if (this.closed) throw new Error('sqlite store is closed');
    set.add(listener);
    this.start();
    return () => {
      set.delete(listener);
      if (this.controlListeners.size === 0 && this.commandListeners.size === 0) this.stop();
    };
  }

  private start(): void {
    if (this.timer !== undefined) return;
    // Baseline now, so subscribers hear about changes after they subscribed and not before.
    this.lastDataVersion = this.readDataVersion();
    this.lastEpoch = this.readEpoch();
    this.lastOrd = this.state.lastCommandOrd();
    this.timer = setInterval(() => this.poll(), this.pollIntervalMs);
    this.timer.unref();
  }

  private stop(): void {
    if (this.timer === undefined) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** 0 for a store with no record yet (an empty store is reported by its readers, not here). */
  private readEpoch(): number {
    try {
      return this.state.readControl().epoch;
    } catch {
      return 0;
    }
  }

  private readDataVersion(): number {
    return this.dataVersion.get()?.data_version ?? 0;
  }

  private poll(): void {
    try {
      const version = this.readDataVersion();
      if (version === this.lastDataVersion && !this.unchecked) return;
      this.lastDataVersion = version;
      this.unchecked = true;
      this.check();
      this.unchecked = false;
    } catch (err) {
      if (isLockBusy(err)) return; // no answer yet: look again at the next poll
      this.unchecked = false; // reported once, not at every poll
      this.onError(err);
    }
  }

  private check(): void {
    // Both baselines move on every check, even with no listener of that kind, so a later subscriber
    // is never told about a change that happened before it subscribed.
    const record = this.state.readControl();
    const ord = this.state.lastCommandOrd();
    // Epochs only grow, so `>` also keeps one change from being reported twice (local + poll).
    if (record.epoch > this.lastEpoch) {
      this.lastEpoch = record.epoch;
      for (const listener of [...this.controlListeners]) this.call(() => listener(record));
    }
    if (ord > this.lastOrd) {
      this.lastOrd = ord;
      for (const listener of [...this.commandListeners]) this.call(listener);
    }
  }

  /** A throwing listener must not break the writer that triggered it nor the other listeners. */
  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.onError(err);
    }
  }
}
