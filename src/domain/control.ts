/**
 * The control plane's vocabulary: system states, control events and the stored control record.
 * Shared by the control statechart, the stores, the API and the trading process.
 */

export const SYSTEM_STATES = ['running', 'paused', 'killed'] as const;
export type SystemState = (typeof SYSTEM_STATES)[number];

/** Events that change (or try to change) the system state. Names follow XState's `area.verb`. */
export type ControlEvent =
  | { type: 'control.pause'; reason: string }
  | { type: 'control.resume'; reason: string }
  | { type: 'control.kill'; reason: string };

export type ControlEventType = ControlEvent['type'];

/**
 * The longest reason an operator may give, by the API (a 422 beyond it) or the `tcs` command (exit 2):
 * reasons are stored in the control record and the audit trail, and shown in banners.
 */
export const REASON_MAX_LENGTH = 500;

/** What the store holds as the single source of truth for the run state. */
export interface ControlRecord {
  state: SystemState;
  /** Increases by one on every state change; approvals carry it so stale ones can be refused. */
  epoch: number;
  reason: string | null;
  /** ISO 8601 UTC time of the last change (of the store's creation, before any change). */
  changed_at: string;
  /**
   * The store's identity, made once when the store was created (or adopted) and never changed by a
   * transition. A process that remembers it can tell a store that lost its data or was replaced from
   * the one it knew (src/domain/store-identity.ts).
   */
  store_id: string;
  /** The identity this store was adopted from by `tcs store adopt`, null for a store created new. */
  adopted_from: string | null;
  /**
   * The record's MAC under CONTROL_SECRET (src/domain/control-mac.ts) as the store holds it: the
   * adapters store and return it, the application signs and checks it
   * (src/application/authenticated-store.ts), and removes it from every record it hands on.
   */
  mac?: string;
}

/**
 * The result of offering an event to the control statechart:
 * - `changed`: the state moved (epoch + 1),
 * - `unchanged`: accepted, nothing to do (pause when paused, resume when running, kill when killed),
 * - `refused`: the statechart does not allow it (pause or resume when killed).
 */
export type ControlOutcome = 'changed' | 'unchanged' | 'refused';

export interface ControlDecision {
  outcome: ControlOutcome;
  from: SystemState;
  to: SystemState;
}

/** Who asked for a control change and when; stored with the audit event. */
export interface ControlActor {
  /** A key id (a short hash of the API key) or a process name; never a secret. */
  actor: string;
  /** ISO 8601 UTC. */
  at: string;
}

export interface ControlApplyResult extends ControlDecision {
  event: ControlEvent;
  record: ControlRecord;
}

/** The record a brand-new store is created with: running at epoch 0, stamped with its creation. */
export function initialControlRecord(storeId: string, createdAt: string): ControlRecord {
  return { state: 'running', epoch: 0, reason: null, changed_at: createdAt, store_id: storeId, adopted_from: null };
}
