/**
 * Fail closed: decides, on every tick, whether the trading process may open exposure at all. It halts
 * trading (the root's `safety.halt`: no cycle, the order manager halted, every open order cancelled —
 * cancel on disconnect, as exchanges offer it) when:
 *  - the store answered but is not the one this process knew (empty, replaced, rolled back — by its
 *    epoch or by its audit trail's head) or the lease passed to another process: `store_empty`, `store_replaced`, `store_rolled_back`,
 *    `store_fenced`; only the operator's adoption (or the original store coming back) ends it;
 *  - the store has not answered for STORE_LOSS_HALT_MS: `store_unreachable`;
 *  - the store answers reads but has refused (or not confirmed) this process's writes for
 *    STORE_LOSS_HALT_MS: `store_write_refused` (a write probe every tick: disk full, a Redis turned
 *    replica, a SQLite lock held elsewhere — reads alone would not see it);
 *  - the trading lease has not been confirmed for three quarters of its duration: `lease_unconfirmed`
 *    (src/application/lease-keeper.ts: it stops new exposure before the lease can run out);
 *  - no API heartbeat has moved for CONTROL_PLANE_TIMEOUT: `control_plane_lost` (nobody could stop it).
 *    A stored API heartbeat that is malformed or of an unknown version is no heartbeat: it never
 *    counts as an API seen (logged once until a good one is read again).
 * It never reads a fault as `running`. It resumes by itself only when the store answers, is trusted
 * (its record agrees with what this process remembers) and an API is seen again: first the open
 * orders are cancelled once more and the halt is recorded in the audit trail (it could not be while
 * the store was away), then `safety.clear`. Ticks never overlap; a tick is bounded by the store's
 * own command deadlines.
 */
import type { ControlRecord } from '../domain/control.js';
import { DocumentError } from '../domain/documents/document-error.js';
import { API_HEARTBEAT_KEY } from '../domain/runtime-documents.js';
import type { ApiHeartbeat } from '../domain/runtime-documents.js';
import type { Clock } from '../ports/clock.js';
import type { ControlStore } from '../ports/control-store.js';
import { readDocument } from '../ports/documents.js';
import type { KeyValueStore } from '../ports/key-value-store.js';
import { StoreFaultError } from '../ports/store-errors.js';
import type { LeaseStanding } from './lease-keeper.js';

/** The document the write probe rewrites every tick (nobody reads it). */
export const TRADING_PROBE_KEY = 'trading:write-probe';

/** Replaced halts remembered until the halt ends (each becomes an audit entry then). */
const MAX_EARLIER_HALTS = 64;

export interface SafetyHalt {
  reason: string;
  message: string;
  /** Epoch ms when the halt began. */
  since: number;
  /**
   * The halts this one replaced without trading in between, oldest first (a store away longer than
   * CONTROL_PLANE_TIMEOUT comes back to a stale API heartbeat): each is recorded when the halt ends.
   */
  earlier?: readonly SafetyHalt[];
}

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
  /** How sure the process is of its trading lease; omitted: no lease to judge. */
  lease?(): LeaseStanding;
  /** Brings the root to a trusted record (the same path as store notifications). */
  syncControl(record: ControlRecord): void;
  halt(halt: SafetyHalt): void;
  /** Cancels every open order at the venue and records the halt that ends; throws when it cannot. */
  recover(halt: SafetyHalt, until: number): Promise<void>;
  clear(): void;
  log(level: 'warn' | 'error' | 'info', message: string, details: Record<string, unknown>): void;
}

export interface SafetyMonitor {
  tick(): Promise<void>;
  /**
   * The checks of a tick before the root actor exists: the halt they call for is only remembered
   * (and returned), for the root to start in it; nothing is sent and no record is synced.
   */
  preflight(): Promise<SafetyHalt | null>;
  /** The current halt, null when trading may open exposure. */
  halted(): SafetyHalt | null;
  /** A fault seen elsewhere (a fenced write refused, a distrusted notification): halt at once. */
  fault(err: StoreFaultError): void;
}

export function createSafetyMonitor(deps: SafetyMonitorDeps): SafetyMonitor {
  let current: SafetyHalt | null = null;
  let unreachableSince: number | null = null;
  let unwritableSince: number | null = null;
  let apiMarker: string | null = null;
  let apiSeenAt: number | null = null;
  let ticking = false;
  let quiet = false;
  let apiBeatRefused = false;

  const haltFor = (reason: string, message: string) => {
    if (current?.reason === reason) return;
    let earlier = current === null ? [] : [...(current.earlier ?? []), { ...current, earlier: undefined }];
    // Bounded for a halt that flaps for hours: the first (where it began) and the latest are kept.
    if (earlier.length > MAX_EARLIER_HALTS) earlier = [earlier[0]!, ...earlier.slice(-(MAX_EARLIER_HALTS - 1))];
    current = { reason, message, since: deps.clock.now(), ...(earlier.length > 0 ? { earlier } : {}) };
    deps.log('error', `trading halted: ${message}`, { reason });
    if (!quiet) deps.halt(current);
  };

  /**
   * 'ok' when the store is trusted and reachable; 'wait' while it has been unreachable for less than
   * STORE_LOSS_HALT_MS (nothing can be submitted meanwhile anyway: every cycle and every order gate
   * reads the store first); otherwise the halt it calls for.
   */
  const checkStore = async (): Promise<'ok' | 'wait' | [string, string]> => {
    try {
      const record = await deps.control.read();
      unreachableSince = null;
      if (!quiet) deps.syncControl(record);
      await deps.checkHead?.();
      return 'ok';
    } catch (err) {
      if (err instanceof StoreFaultError) return [`store_${err.kind}`, err.message];
      const now = deps.clock.now();
      unreachableSince ??= now;
      const silent = now - unreachableSince;
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
   */
  const checkWrites = async (): Promise<[string, string] | null> => {
    if (!deps.probeKv) return null;
    try {
      await deps.probeKv.set(TRADING_PROBE_KEY, { ts: deps.clock.now() });
      unwritableSince = null;
      return null;
    } catch (err) {
      if (err instanceof StoreFaultError) return [`store_${err.kind}`, err.message];
      const now = deps.clock.now();
      unwritableSince ??= now;
      const refused = now - unwritableSince;
      if (refused < deps.storeLossHaltMs) return null;
      return [
        'store_write_refused',
        `the store answers reads but has not taken a write for ${refused} ms (STORE_LOSS_HALT_MS ${deps.storeLossHaltMs}): ${(err as Error).message}`,
      ];
    }
  };

  const checkLease = (): [string, string] | null => {
    const standing = deps.lease?.() ?? { kind: 'held' };
    if (standing.kind === 'held') return null;
    if (standing.kind === 'lost')
      return ['store_fenced', `the trading lease passed to another process (${standing.to}): this one stops`];
    return [
      'lease_unconfirmed',
      `the trading lease has not been confirmed for ${standing.sinceConfirmedMs} ms: no new exposure before it could run out`,
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

  const checkControlPlane = async (): Promise<[string, string] | null> => {
    const timeout = deps.controlPlaneTimeoutMs;
    if (timeout === null) return null;
    const now = deps.clock.now();
    const beat = await readApiHeartbeat();
    const marker = beat ? `${beat.host}:${beat.pid}:${beat.seq}` : null;
    if (beat && marker !== apiMarker) {
      // The first beat seen is judged by its own timestamp (it may be an old one left by an API that
      // died); every later one by being new, on this process's clock only.
      if (apiMarker !== null || now - beat.ts < timeout) apiSeenAt = now;
      apiMarker = marker;
    }
    if (apiSeenAt !== null && now - apiSeenAt < timeout) return null;
    return [
      'control_plane_lost',
      apiSeenAt === null
        ? `no API process has been seen on this store (CONTROL_PLANE_TIMEOUT ${timeout} ms): nobody could pause or kill trading`
        : `the API process has been silent for ${now - apiSeenAt} ms (CONTROL_PLANE_TIMEOUT ${timeout} ms): nobody could pause or kill trading`,
    ];
  };

  const tick = async () => {
    const store = await checkStore();
    if (store === 'wait') return;
    if (store !== 'ok') {
      haltFor(store[0], store[1]);
      return;
    }
    let found: [string, string] | null;
    try {
      found = (await checkWrites()) ?? checkLease() ?? (await checkControlPlane());
    } catch {
      return; // the store failed right after answering: judged again on the next tick
    }
    if (found) {
      haltFor(found[0], found[1]);
      return;
    }
    if (unwritableSince !== null) return; // writes failing, not for long yet: nothing heals meanwhile
    if (current === null) return;
    const ended = current;
    try {
      await deps.recover(ended, deps.clock.now());
    } catch (err) {
      deps.log('warn', 'the halt cannot end yet: cancelling open orders or recording it failed', {
        err,
        reason: ended.reason,
      });
      return;
    }
    if (current !== ended) return;
    current = null;
    deps.log('info', 'trading halt ended: the store and the control record agree again', { reason: ended.reason });
    deps.clear();
  };

  return {
    halted: () => current,
    fault: (err) => haltFor(`store_${err.kind}`, err.message),
    async preflight() {
      quiet = true;
      try {
        const store = await checkStore();
        if (store !== 'ok' && store !== 'wait') haltFor(store[0], store[1]);
        else if (store === 'ok') {
          const found = (await checkWrites()) ?? checkLease() ?? (await checkControlPlane());
          if (found) haltFor(found[0], found[1]);
        }
      } finally {
        quiet = false;
      }
      return current;
    },
    async tick() {
      if (ticking) return;
      ticking = true;
      try {
        await tick();
      } finally {
        ticking = false;
      }
    },
  };
}
