/**
 * Fail closed: every tick (SAFETY_TICK_MS) the safety monitor checks whether the trading process may
 * open exposure at all, and reports what it observed to the root statechart, which alone owns the
 * halt (machines/trading.machine.ts): a fault (`safety.halt`) or every check passing
 * (`safety.clear`). The root halts on a fault with a new reason (no cycle, the order manager halted,
 * every open order cancelled — cancel on disconnect, as exchanges offer it) and, when the checks pass
 * again while halted, recovers (cancels once more, records the halt in the audit trail, which it could
 * not reach while the store was away) before trading again. The faults:
 *  - the store answered but is not the one this process knew (empty, replaced, rolled back — by its
 *    epoch or by its audit trail's head) or the lease passed to another process: `store_empty`,
 *    `store_replaced`, `store_rolled_back`, `store_fenced`, or a control record without a valid MAC:
 *    `store_tampered`; only the operator's adoption (or the
 *    original store coming back) ends it;
 *  - the store has not answered for STORE_LOSS_HALT_MS: `store_unreachable`;
 *  - the store answers reads but has refused (or not confirmed) this process's writes for
 *    STORE_LOSS_HALT_MS: `store_write_refused` (a write probe every tick: disk full, a Redis turned
 *    replica, a SQLite lock held elsewhere — reads alone would not see it);
 *  - this process's wall clock is further than AUDIT_CLOCK_SKEW_MS from the store's: `clock_skew`, at once
 *    (every audit entry it would write is refused, so a cycle could not record what it decided; and a
 *    clock that far off misjudges the API's heartbeat and every timestamp it hands out);
 *  - a Redis that may evict what is written to it (`maxmemory-policy` changed while trading, or no
 *    longer readable): `store_evicting`, at once (the start refuses such a store; this sees it change);
 *  - the trading latch cannot be written (a full or read-only disk): `latch_unwritable`, at once (a move
 *    the process cannot remember would be forgotten by a restart; the store itself may be fine);
 *  - the trading lease has not been confirmed for three quarters of its duration: `lease_unconfirmed`
 *    (src/application/lease-keeper.ts: it stops new exposure before the lease can run out);
 *  - no API heartbeat has moved for CONTROL_PLANE_TIMEOUT: `control_plane_lost` (nobody could stop it);
 *  - live execution only: the exchange has not answered for EXCHANGE_LOSS_HALT_MS (timeouts, dropped
 *    connections, 5xx — src/adapters/live-venue/exchange-reachability.ts): `exchange_unreachable`.
 *    Asking also probes it, so a halted process (no cycle, no order) sees it come back;
 *  - live execution only: the exchange banned this IP (418; src/adapters/live-venue/request-gate.ts):
 *    `exchange_banned`, at once, naming the ban's end; nothing is sent until then, and it ends when
 *    the exchange answers after the ban (the probe above asks once the ban's time has passed);
 *  - live execution only: this host's clock is more than half the recvWindow off the exchange's
 *    (src/adapters/live-venue/exchange-clock.ts): `exchange_clock_skew`, ending once measured within.
 * It never reads a fault as `running`. While the store has failed for less than STORE_LOSS_HALT_MS it
 * reports nothing (nothing can be submitted meanwhile anyway: every cycle and every order gate reads
 * the store first). Ticks never overlap; a tick is bounded by the store's own command deadlines.
 *
 * Every silence is measured on the monotonic clock (src/ports/clock.ts), never as a difference of
 * wall times: a wall clock stepped back an hour would otherwise read an hour of silence as none and
 * end a halt with nobody able to stop trading. The API's heartbeat is judged by its `seq` moving
 * while this process watches; its wall `ts` only decides whether the very first beat seen counts.
 * Each tick also compares the two clocks (src/application/clock-steps.ts) to report steps.
 */
import type { ControlRecord } from '../domain/control.js';
import { DocumentError } from '../domain/documents/document-error.js';
import { API_HEARTBEAT_KEY } from '../domain/runtime-documents.js';
import type { ApiHeartbeat } from '../domain/runtime-documents.js';
import type { Clock } from '../ports/clock.js';
import { monotonicNow } from '../ports/clock.js';
import type { ControlStore } from '../ports/control-store.js';
import { readDocument } from '../ports/documents.js';
import type { KeyValueStore } from '../ports/key-value-store.js';
import { LatchUnwritableError } from '../ports/latch.js';
import { StoreFaultError } from '../ports/store-errors.js';
import type { HaltReason } from '../domain/halt-reasons.js';
import type { SafetyFault } from '../domain/halts.js';
import type { SafetyEvent } from '../../machines/trading.machine.js';
import type { ClockStepWatch } from './clock-steps.js';
import type { LeaseStanding } from './lease-keeper.js';

/** A halt the checks call for: its reason and what was seen. */
type Fault = [HaltReason, string];

const storeFault = (err: StoreFaultError): Fault => [`store_${err.kind}`, err.message];

/** The document the write probe rewrites every tick (nobody reads it). */
export const TRADING_PROBE_KEY = 'trading:write-probe';

export interface SafetyMonitorDeps {
  clock: Clock;
  /** The trusted control store (src/application/trusted-control.ts): faults arrive as StoreFaultError. */
  control: ControlStore;
  kv: KeyValueStore;
  /** Silence of the control plane that halts trading, ms; null when there is no control plane to wait for. */
  controlPlaneTimeoutMs: number | null;
  /** How long the store may be unreachable before trading halts and cancels, ms. */
  storeLossHaltMs: number;
  /**
   * Writes with this process's fence, for the write probe (TRADING_PROBE_KEY); the key-value store
   * `kv` is only read. Omitted: no write probe (a store view that cannot write).
   */
  probeKv?: KeyValueStore;
  /**
   * Judges the store's audit trail head against the one remembered (TrustedControl.checkHead): a
   * StoreFaultError when it went back. Omitted: the trail is not judged.
   */
  checkHead?(): Promise<void>;
  /**
   * Live execution: whether the exchange answers, how long it may not before trading halts, and the
   * ban standing (one line naming its end, or null; omitted: not judged).
   */
  exchange?: {
    silence(): { forMs: number; error: string } | null;
    lossHaltMs: number;
    banned?(): string | null;
    /** The local clock's skew from the exchange's beyond half the recvWindow, one line, or null. */
    clockSkew?(): string | null;
    /**
     * A held dead-man's switch (Bybit's DCP) whose connection has been down past its grace, one line,
     * or null (omitted: none held).
     */
    switchDown?(): string | null;
  };
  /** How sure the process is of its trading lease; omitted: no lease to judge. */
  lease?(): LeaseStanding;
  /** Why this process's clock may not stamp audit entries (Store.clockSkew); omitted: not judged. */
  clockSkew?(): Promise<string | null>;
  /** Why the store may drop what is written to it (Store.evictionRisk); omitted: not judged. */
  evictionRisk?(): Promise<string | null>;
  /** Looked at every tick, so wall-clock steps are seen (and logged by its owner) within a tick. */
  clockSteps?: ClockStepWatch;
  /** Where observations go: the root actor (its `safety.halt` and `safety.clear` events). */
  report(observation: SafetyObservation): void;
  log(level: 'warn' | 'error' | 'info', message: string, details: Record<string, unknown>): void;
}

export type SafetyObservation = SafetyEvent;

export interface SafetyMonitor {
  /**
   * One round of checks, reported. Returns the trusted control record the round read (null when the
   * store did not answer), so the caller can bring the root to it: a missed notification is then
   * bounded to a tick.
   */
  tick(): Promise<ControlRecord | null>;
  /** A fault seen elsewhere (a fenced write refused, a distrusted notification): reported at once. */
  fault(err: StoreFaultError): void;
}

/**
 * The checks of a tick before the root actor exists, for the root to start in the halt they call for
 * (null: none); nothing is reported and no record is synced.
 */
export type SafetyPreflight = () => Promise<SafetyFault | null>;

/** The safety monitor, and the preflight that shares its checks' state. */
export function createSafetyMonitor(deps: SafetyMonitorDeps): SafetyMonitor & { preflight: SafetyPreflight } {
  /** Monotonic ms: elapsed time only (see the module comment). */
  const elapsed = () => monotonicNow(deps.clock);
  let unreachableSince: number | null = null;
  /** When the first write of the current refusal was refused; kept until writes go through again. */
  let unwritableSince: number | null = null;
  /** When the current unbroken run of accepted writes began, while unwritableSince is set. */
  let writingSince: number | null = null;
  let apiMarker: string | null = null;
  let apiSeenAt: number | null = null;
  let ticking = false;
  let apiBeatRefused = false;
  /** The record the current round read. */
  let read: ControlRecord | null = null;
  /** The last fault reported, so each is logged once (the root decides what it means). */
  let lastReason: string | null = null;

  const reportFault = ([reason, message]: Fault) => {
    if (reason !== lastReason) deps.log('error', `safety check failed: ${message}`, { reason });
    lastReason = reason;
    deps.report({ type: 'safety.halt', reason, message, at: deps.clock.now() });
  };

  /**
   * 'ok' when the store is trusted and reachable; 'wait' while it has been unreachable for less than
   * STORE_LOSS_HALT_MS (nothing can be submitted meanwhile anyway: every cycle and every order gate
   * reads the store first); otherwise the halt it calls for.
   */
  const checkStore = async (): Promise<'ok' | 'wait' | Fault> => {
    try {
      read = await deps.control.read();
      unreachableSince = null;
      await deps.checkHead?.();
      return 'ok';
    } catch (err) {
      if (err instanceof StoreFaultError) return storeFault(err);
      // The store answered (a read or the head check); what failed was remembering it.
      if (err instanceof LatchUnwritableError) return ['latch_unwritable', err.message];
      const now = elapsed();
      unreachableSince ??= now;
      const silent = Math.round(now - unreachableSince);
      if (silent < deps.storeLossHaltMs) return 'wait';
      return [
        'store_unreachable',
        `the store has not answered for ${silent} ms (STORE_LOSS_HALT_MS ${deps.storeLossHaltMs}): ${(err as Error).message}`,
      ];
    }
  };

  /**
   * The write probe: null while writes go through (or have failed for less than STORE_LOSS_HALT_MS),
   * otherwise the halt. A fault (a superseded fence) is the fault's halt at once.
   *
   * The time is counted from the FIRST refused write, and a probe that gets through in between does
   * not reset it: a store that refuses most writes (Redis out of memory, freeing a little now and
   * then) would otherwise never halt while orders keep going out. Writes count as going through
   * again only after an unbroken run of accepted probes lasting STORE_LOSS_HALT_MS itself.
   */
  const checkWrites = async (): Promise<Fault | null> => {
    if (!deps.probeKv) return null;
    try {
      // At once: a probe queued behind a flood of this process's writes would measure the queue.
      await deps.probeKv.set(TRADING_PROBE_KEY, { ts: deps.clock.now() }, undefined, { atOnce: true });
      if (unwritableSince === null) return null;
      const now = elapsed();
      writingSince ??= now;
      if (now - writingSince >= deps.storeLossHaltMs) unwritableSince = writingSince = null;
      return null;
    } catch (err) {
      if (err instanceof StoreFaultError) return storeFault(err);
      const now = elapsed();
      unwritableSince ??= now;
      writingSince = null;
      const refused = now - unwritableSince;
      if (refused < deps.storeLossHaltMs) return null;
      return [
        'store_write_refused',
        `the store answers reads but has refused writes for ${Math.round(refused)} ms (STORE_LOSS_HALT_MS ${deps.storeLossHaltMs}): ${(err as Error).message}`,
      ];
    }
  };

  /** The store's clock and its memory policy: each a halt at once, judged again every tick. */
  const checkStoreKeeps = async (): Promise<Fault | null> => {
    const skew = (await deps.clockSkew?.()) ?? null;
    if (skew !== null) return ['clock_skew', skew];
    const eviction = (await deps.evictionRisk?.()) ?? null;
    if (eviction !== null) return ['store_evicting', `the store may lose what is written to it: ${eviction}`];
    return null;
  };

  const checkLease = (): Fault | null => {
    const standing = deps.lease?.() ?? { kind: 'held' };
    if (standing.kind === 'held') return null;
    if (standing.kind === 'lost')
      return ['store_fenced', `the trading lease passed to another process (${standing.to}): this one stops`];
    return [
      'lease_unconfirmed',
      `the trading lease has not been confirmed for ${Math.round(standing.sinceConfirmedMs)} ms: no new exposure before it could run out`,
    ];
  };

  /** The API's heartbeat; null when absent or refused (a fault, never a sign of life). */
  const readApiHeartbeat = async (): Promise<ApiHeartbeat | null> => {
    try {
      const beat = await readDocument(deps.kv, API_HEARTBEAT_KEY);
      if (apiBeatRefused) deps.log('info', 'the API heartbeat is readable again', { key: API_HEARTBEAT_KEY });
      apiBeatRefused = false;
      return beat;
    } catch (err) {
      if (!(err instanceof DocumentError)) throw err;
      if (!apiBeatRefused) {
        deps.log('warn', 'the stored API heartbeat is refused; it does not count as an API seen', {
          key: err.key,
          fault: err.kind,
          detail: err.message,
        });
      }
      apiBeatRefused = true;
      return null;
    }
  };

  const checkControlPlane = async (): Promise<Fault | null> => {
    const timeout = deps.controlPlaneTimeoutMs;
    if (timeout === null) return null;
    const now = elapsed();
    const beat = await readApiHeartbeat();
    const marker = beat ? `${beat.host}:${beat.pid}:${beat.seq}` : null;
    if (beat && marker !== apiMarker) {
      // The first beat seen is judged by its own timestamp, the only sign of its age (it may be an old
      // one left by an API that died), and only when it is near this host's wall time either way (a
      // clock apart from the API's by more than the timeout cannot judge it: the next beat will);
      // every later one by being new, on this process's monotonic clock only.
      if (apiMarker !== null || Math.abs(deps.clock.now() - beat.ts) < timeout) apiSeenAt = now;
      apiMarker = marker;
    }
    if (apiSeenAt !== null && now - apiSeenAt < timeout) return null;
    return [
      'control_plane_lost',
      apiSeenAt === null
        ? `no API process has been seen on this store (CONTROL_PLANE_TIMEOUT ${timeout} ms): nobody could pause or kill trading`
        : `the API process has been silent for ${Math.round(now - apiSeenAt)} ms (CONTROL_PLANE_TIMEOUT ${timeout} ms): nobody could pause or kill trading`,
    ];
  };

  const checkExchange = (): Fault | null => {
    if (!deps.exchange) return null;
    const silence = deps.exchange.silence();
    const ban = deps.exchange.banned?.() ?? null;
    if (ban !== null) return ['exchange_banned', ban];
    // Asked every tick (asking measures when due), judged after the ban: a banned IP cannot measure.
    const skew = deps.exchange.clockSkew?.() ?? null;
    if (skew !== null) return ['exchange_clock_skew', skew];
    const switchDown = deps.exchange.switchDown?.() ?? null;
    if (switchDown !== null) return ['exchange_switch_down', switchDown];
    const limit = deps.exchange.lossHaltMs;
    if (silence === null || silence.forMs < limit) return null;
    return [
      'exchange_unreachable',
      `the exchange has not answered for ${Math.round(silence.forMs)} ms (EXCHANGE_LOSS_HALT_MS ${limit}): ${silence.error}`,
    ];
  };

  /** The fault the checks find now; 'wait' while the store has failed too briefly to judge. */
  const check = async (): Promise<Fault | null | 'wait'> => {
    // Asked every tick whatever else fails: asking keeps the exchange probed while nothing calls it.
    const exchange = checkExchange();
    const store = await checkStore();
    if (store !== 'ok') return store;
    try {
      const found =
        (await checkWrites()) ?? (await checkStoreKeeps()) ?? checkLease() ?? (await checkControlPlane()) ?? exchange;
      // Writes failing, not for long yet: nothing to report (and nothing heals meanwhile).
      return found ?? (unwritableSince !== null ? 'wait' : null);
    } catch {
      return 'wait'; // the store failed right after answering: judged again on the next tick
    }
  };

  const tick = async () => {
    deps.clockSteps?.look();
    const found = await check();
    if (found === 'wait') return;
    if (found) return reportFault(found);
    if (lastReason !== null) deps.log('info', 'the safety checks pass again', { was: lastReason });
    lastReason = null;
    deps.report({ type: 'safety.clear', at: deps.clock.now() });
  };

  return {
    fault: (err) => reportFault(storeFault(err)),
    async preflight() {
      const found = await check();
      return found === null || found === 'wait' ? null : { reason: found[0], message: found[1] };
    },
    async tick() {
      if (ticking) return null;
      ticking = true;
      read = null;
      try {
        await tick();
        return read;
      } finally {
        ticking = false;
      }
    },
  };
}
