/**
 * The signal funnel (issue 34, item 3): what became of each signal a cycle's strategies sent, read from
 * the cycle's record (the arbiter's ranking, the allocator's proposals with their skip codes, the risk
 * engine's verdicts, the order manager's outcomes), so a run that made no fill says which step dropped
 * the signals and which variable decides it. Pure: the record is data, the outcome one of a bounded
 * set and the reason a code from a catalog (arbitration-reasons.ts, allocation-skips.ts, the guard
 * codes), so both fit a metric's labels.
 *
 * Each signal gets one outcome, the furthest its orders got (a flip's close and opening are one
 * signal): filled > ordered > refused > risk_denied > skipped. `no_change` is a signal that asked for
 * what is already so — the same side as the position held, within the no-trade band (HOLDING), or
 * an exit with nothing to close (NOTHING_TO_EXIT, ALREADY_FLAT): a long/flat strategy repeating its
 * view every bar sends mostly those, and they removed nothing.
 */
import type { Proposal } from './allocation.js';
import type { ArbitrationResult } from './arbitration.js';
import type { AccountSnapshot } from './portfolio.js';
import { projectAccount } from './risk/projection.js';
import { expectedPosition } from './sizing.js';
import type { RiskDecision } from './risk/risk-engine.js';
import type { Signal } from './signal.js';

export const SIGNAL_OUTCOMES = [
  'filled',
  'ordered',
  'refused',
  'risk_denied',
  'skipped',
  'no_change',
  'invalid',
  'errored',
] as const;
export type SignalOutcome = (typeof SIGNAL_OUTCOMES)[number];

/** One signal's fate; `orders` are the client order ids sized for it (a later fill promotes it). */
export interface SignalFate {
  agent: string;
  outcome: SignalOutcome;
  /** The code that decided it ('' for filled and ordered). */
  reason: string;
  orders: readonly string[];
}

/**
 * What of a cycle's record (machines/cycle.machine.ts CycleRecord) the funnel reads, spelled out here
 * because the domain does not depend on the machines.
 */
export interface FunnelRecord {
  outcome: 'completed' | 'superseded' | 'failed';
  account: AccountSnapshot | null;
  replies: readonly {
    agent: string;
    signals: readonly Signal[];
    errors?: readonly unknown[];
    invalid?: readonly unknown[];
  }[];
  arbitration: ArbitrationResult | null;
  proposals: readonly Proposal[];
  verdicts: readonly { order: { clientOrderId: string }; decision: RiskDecision; approval: unknown }[];
  outcomes: readonly (
    | { clientOrderId: string; status: 'submitted'; venueStatus: string; filledQty: number }
    | { clientOrderId: string; status: 'refused'; code: string }
  )[];
}

const RANK: Readonly<Record<SignalOutcome, number>> = {
  filled: 7,
  ordered: 6,
  refused: 5,
  risk_denied: 4,
  skipped: 3,
  no_change: 2,
  invalid: 1,
  errored: 0,
};

const NO_CHANGE_SKIPS: ReadonlySet<string> = new Set(['ALREADY_FLAT', 'NOTHING_TO_EXIT']);

/**
 * A record's fates, worked out once: a simulation hands the same record to its run observer and to
 * the metrics. Records are not changed once reported, so the cached answer stays true.
 */
const judged = new WeakMap<FunnelRecord, readonly SignalFate[]>();

export function cycleFunnel(record: FunnelRecord): readonly SignalFate[] {
  let fates = judged.get(record);
  if (fates === undefined) judged.set(record, (fates = judge(record)));
  return fates;
}

function judge(record: FunnelRecord): SignalFate[] {
  const fates: SignalFate[] = [];
  // A cycle that ended before a step ran dropped its signals there: named after how it ended.
  const unfinished = record.outcome === 'superseded' ? 'CYCLE_SUPERSEDED' : 'CYCLE_FAILED';
  for (const reply of record.replies) {
    for (const _ of reply.errors ?? []) fates.push(fate(reply.agent, 'errored', 'AGENT_ERROR'));
    for (const _ of reply.invalid ?? []) fates.push(fate(reply.agent, 'invalid', 'INVALID_SIGNAL'));
  }
  if (record.arbitration === null) {
    for (const reply of record.replies)
      for (const _ of reply.signals) fates.push(fate(reply.agent, 'skipped', unfinished));
    return fates;
  }
  for (const ranked of record.arbitration.ranked) {
    const { signal } = ranked;
    if (ranked.reason === 'INVALID_SIGNAL') fates.push(fate(signal.agent, 'invalid', ranked.reason));
    else if (!ranked.selected)
      fates.push(fate(signal.agent, NO_CHANGE_SKIPS.has(ranked.reason) ? 'no_change' : 'skipped', ranked.reason));
    else fates.push(selectedFate(signal, record, unfinished));
  }
  return fates;
}

function fate(agent: string, outcome: SignalOutcome, reason: string, orders: readonly string[] = []): SignalFate {
  return { agent, outcome, reason, orders };
}

/** A selected signal: what the allocator, the risk engine and the order manager made of it. */
function selectedFate(signal: Signal, record: FunnelRecord, unfinished: string): SignalFate {
  // The arbiter selects one signal per symbol, so the symbol's proposals (a protective exit's aside) are its.
  const proposals = record.proposals.filter((p) => p.exit === undefined && p.signal.symbol === signal.symbol);
  if (proposals.length === 0) return fate(signal.agent, 'skipped', unfinished);
  const orders = proposals.flatMap((p) => (p.order === null ? [] : [p.order.clientOrderId]));
  let best: SignalFate | null = null;
  for (const p of proposals) {
    const next =
      p.order === null
        ? skippedFate(signal, p.skipped?.code ?? unfinished, record)
        : orderFate(signal.agent, p.order.clientOrderId, record, unfinished);
    if (best === null || RANK[next.outcome] > RANK[best.outcome]) best = next;
  }
  return { ...best!, orders };
}

function skippedFate(signal: Signal, code: string, record: FunnelRecord): SignalFate {
  if (NO_CHANGE_SKIPS.has(code)) return fate(signal.agent, 'no_change', code);
  // Within the band on the side already held, or resting to be held (as the allocator judged it, its
  // resting orders filled): the position is what the signal asks for.
  if (code === 'WITHIN_BAND' && record.account !== null) {
    const touched = record.account.openOrders.some((o) => o.symbol === signal.symbol);
    const expected = touched
      ? expectedPosition(projectAccount(record.account).books.get(signal.symbol))
      : (record.account.positions.find((p) => p.symbol === signal.symbol)?.qty ?? 0);
    if (expected !== 0 && Math.sign(expected) === Math.sign(signal.direction))
      return fate(signal.agent, 'no_change', 'HOLDING');
  }
  return fate(signal.agent, 'skipped', code);
}

function orderFate(agent: string, clientOrderId: string, record: FunnelRecord, unfinished: string): SignalFate {
  const verdict = record.verdicts.find((v) => v.order.clientOrderId === clientOrderId);
  if (verdict === undefined) return fate(agent, 'skipped', unfinished);
  if (verdict.approval === null) {
    const failed = verdict.decision.checks.find((c) => !c.passed);
    return fate(agent, 'risk_denied', failed?.code ?? 'UNKNOWN');
  }
  const sent = record.outcomes.find((o) => o.clientOrderId === clientOrderId);
  if (sent === undefined) return fate(agent, 'ordered', '');
  if (sent.status === 'refused') return fate(agent, 'refused', sent.code);
  if (sent.venueStatus === 'rejected') return fate(agent, 'refused', 'VENUE_REJECTED');
  return fate(agent, sent.filledQty > 0 ? 'filled' : 'ordered', '');
}
