/**
 * The one source of live events per API process, fanned out to every connected stream client.
 * Clients never touch the store for live events: the hub reads each new audit entry once, frames it
 * once, and hands the same string to every client, so 50 clients cost what one does.
 *
 * Where the events come from:
 * - audit entries (control changes, decisions and their fills, command results, everything else as
 *   `audit`): a tail of the audit trail from the hub's cursor. It runs at once when the store
 *   notifies a control change or a new command (ControlStore/CommandQueue `subscribe`: Redis pub/sub,
 *   SQLite data_version), and on one shared timer (`tailMs`) for what has no notification
 *   (decisions, command results, audit entries written by the trading process);
 * - the trading heartbeat: the kv document the trading process publishes, read on one shared timer
 *   and sent when it moved;
 * - the machines' active states (MACHINES_KEY), likewise on a faster shared timer (the console draws
 *   transitions from it) and sent when the published document moved;
 * - health: the same check as GET /health on one shared, slower timer, sent when a status changed
 *   (the risk engine's state and its `since` included).
 * The hub starts with its first client and runs until the API closes.
 */
import type { FastifyBaseLogger } from 'fastify';
import { HEARTBEAT_KEY } from '../../domain/runtime-documents.js';
import type { Clock } from '../../ports/clock.js';
import { readDocument } from '../../ports/documents.js';
import type { Store } from '../../ports/store.js';
import type { Health } from '../health.js';
import { NOTHING_PUBLISHED, createMachinesReader } from '../statecharts/machines-reader.js';
import type { MachinesEventData } from '../statecharts/schemas.js';
import { healthChecker } from '../health.js';
import type { HealthStoreView } from '../store-view.js';
import type { HeartbeatEventData } from './schemas.js';
import type { StreamMessage } from './stream-events.js';
import { auditMessages, liveMessage } from './stream-events.js';

export interface HubClient {
  deliver(message: StreamMessage): void;
  keepAlive(): void;
  end(): void;
}

export interface HubTimings {
  /** Audit tail for what has no notification (decisions, command results). */
  tailMs: number;
  heartbeatMs: number;
  /** The machines document: the trading process writes it at most every 100 ms. */
  machinesMs: number;
  healthMs: number;
  keepAliveMs: number;
}

export const DEFAULT_HUB_TIMINGS: HubTimings = {
  tailMs: 250,
  heartbeatMs: 1_000,
  machinesMs: 250,
  healthMs: 5_000,
  keepAliveMs: 15_000,
};

/** Audit entries read per store query by the tail. */
const TAIL_PAGE = 200;

export class EventHub {
  private readonly clients = new Set<HubClient>();
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private readonly unsubscribes: (() => Promise<void>)[] = [];
  private readonly health;
  private starting: Promise<void> | null = null;
  private closed = false;
  /** The seq of the last audit entry fanned out. */
  private cursorSeq = 0;
  private tailing: Promise<void> | null = null;
  private tailAgain = false;
  private lastBeatTs: number | null = null;
  private lastHealthKey = '';
  private lastMachinesAt: string | null = null;
  private readonly machines;
  /** Watchers whose last read failed: each says so once per outage, and once when it works again. */
  private readonly failing = new Set<string>();
  latestHeartbeat: HeartbeatEventData | null = null;
  /** The machines' active states last read (nothing published: null time, empty lists). */
  latestMachines: MachinesEventData = NOTHING_PUBLISHED;
  latestHealth: Health | null = null;

  constructor(
    private readonly store: Store,
    clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly timings: HubTimings = DEFAULT_HUB_TIMINGS,
    storeView?: HealthStoreView,
  ) {
    this.health = healthChecker(store, clock, undefined, storeView);
    this.machines = createMachinesReader(store.kv, log);
  }

  get cursor(): number {
    return this.cursorSeq;
  }

  get size(): number {
    return this.clients.size;
  }

  /** Starts the shared watchers once; later calls wait for the first. */
  start(): Promise<void> {
    this.starting ??= this.begin();
    return this.starting;
  }

  add(client: HubClient): void {
    if (this.closed) {
      client.end();
      return;
    }
    this.clients.add(client);
  }

  remove(client: HubClient): void {
    this.clients.delete(client);
  }

  /** Ends every stream and stops the watchers (the API's shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const client of [...this.clients]) client.end();
    this.clients.clear();
    await Promise.allSettled(this.unsubscribes.map((u) => u()));
    await this.tailing;
  }

  private async begin(): Promise<void> {
    const [head] = await this.store.events.query({ limit: 1 });
    this.cursorSeq = head?.seq ?? 0;
    await Promise.all([this.readHeartbeat(), this.readMachines(), this.checkHealth()]);
    if (this.closed) return;
    const every = (ms: number, fn: () => unknown) => {
      const timer = setInterval(fn, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.timings.tailMs, () => this.tail());
    every(this.timings.heartbeatMs, () => void this.readHeartbeat());
    every(this.timings.machinesMs, () => void this.readMachines());
    every(this.timings.healthMs, () => void this.checkHealth());
    every(this.timings.keepAliveMs, () => this.each((c) => c.keepAlive()));
    this.unsubscribes.push(
      await this.store.control.subscribe(() => this.tail()),
      await this.store.commands.subscribe(() => this.tail()),
    );
  }

  /** One tail in flight at a time; a trigger during one runs another right after it. */
  private tail(): void {
    if (this.closed) return;
    if (this.tailing) {
      this.tailAgain = true;
      return;
    }
    this.tailing = this.readNew()
      .then(
        () => this.worked('reading the audit trail'),
        (err: unknown) => this.failed('reading the audit trail', err),
      )
      .finally(() => {
        this.tailing = null;
        if (this.tailAgain) {
          this.tailAgain = false;
          this.tail();
        }
      });
  }

  private async readNew(): Promise<void> {
    for (;;) {
      // The head first: an idle trail costs one entry a tick, not a page of old ones (each tick used
      // to read the 200 newest entries, all delivered already).
      const [head] = await this.store.events.query({ limit: 1 });
      const waiting = (head?.seq ?? 0) - this.cursorSeq;
      if (waiting <= 0) return;
      // Seqs have no gaps, so "before cursor + 1 + n, newest first" holds the next n entries; were
      // fewer new (a store replaced meanwhile), older entries fill the page and are skipped.
      const size = Math.min(waiting, TAIL_PAGE);
      const page = await this.store.events.query({ before: this.cursorSeq + 1 + size, limit: size });
      const fresh = page.filter((e) => e.seq > this.cursorSeq).sort((a, b) => a.seq - b.seq);
      for (const entry of fresh) {
        if (this.closed) return;
        this.cursorSeq = entry.seq;
        for (const message of auditMessages(entry)) this.each((c) => c.deliver(message));
      }
      if (fresh.length < size) return;
    }
  }

  private async readHeartbeat(): Promise<void> {
    try {
      // A refused heartbeat (malformed, another version) fails like a failed read: logged once per
      // outage, nothing sent, the last good one kept for new clients' snapshots.
      const beat = await readDocument(this.store.kv, HEARTBEAT_KEY);
      this.worked('reading the trading heartbeat');
      if (beat === null || beat.ts === this.lastBeatTs) return;
      this.lastBeatTs = beat.ts;
      const data: HeartbeatEventData = {
        cycle: beat.lastCycle,
        epoch: beat.epoch,
        state: beat.state,
        ts: new Date(beat.ts).toISOString(),
        last_cycle_at: beat.lastCycleAt === null ? null : new Date(beat.lastCycleAt).toISOString(),
        halt: beat.halt ?? null,
        mode: beat.mode,
        stopped: beat.stopped === true,
      };
      this.latestHeartbeat = data;
      this.fanOut(liveMessage('heartbeat', data));
    } catch (err) {
      this.failed('reading the trading heartbeat', err);
    }
  }

  private async readMachines(): Promise<void> {
    try {
      const data = await this.machines.read();
      this.worked('reading the machine states');
      if (data.published_at === this.lastMachinesAt) return;
      this.lastMachinesAt = data.published_at;
      this.latestMachines = data;
      this.fanOut(liveMessage('machines', data));
    } catch (err) {
      this.failed('reading the machine states', err);
    }
  }

  private async checkHealth(): Promise<void> {
    try {
      const { body } = await this.health.check();
      this.worked('the health check');
      const c = body.components;
      // The risk state is in the key on its own: `halted` and a new `reducing` episode (a new `since`)
      // leave the overall status as it was, and a killed process runs no cycle that would refresh a page.
      // So are the stale market data's symbols: they go stale while the answer may be degraded already.
      const key = [
        body.status,
        body.state,
        c.store.status,
        c.event_store.status,
        c.trading_process.status,
        c.risk.status,
        c.risk.since,
        c.market_data.status,
        c.market_data.stale.map((m) => m.symbol).join(' '),
      ].join();
      this.latestHealth = body;
      if (key === this.lastHealthKey) return;
      this.lastHealthKey = key;
      this.fanOut(liveMessage('health', body));
    } catch (err) {
      this.failed('the health check', err);
    }
  }

  private failed(what: string, err: unknown): void {
    if (this.failing.has(what)) return;
    this.failing.add(what);
    this.log.warn({ err }, `event stream: ${what} failed; retrying quietly until it works again`);
  }

  private worked(what: string): void {
    if (this.failing.delete(what)) this.log.info(`event stream: ${what} works again`);
  }

  private fanOut(message: StreamMessage): void {
    if (!this.closed) this.each((c) => c.deliver(message));
  }

  private each(fn: (client: HubClient) => void): void {
    for (const client of [...this.clients]) fn(client);
  }
}
