/**
 * The DecisionLog entry of one cycle (what GET /reports/decisions serves): the signals with their
 * weights and scores, the selection, the proposed orders with how the allocator sized them (target,
 * expected position, and the limit that scaled an order down), each guard's value/limit/verdict, the
 * projected figures before and after each order (worst case: every counted resting and pending order
 * filling), the orders counted, the tokens, the submissions, the account, the control epoch and the
 * duration. Written for every cycle, also when nothing was decided. A protective exit's proposal
 * carries `exit` (reason, entry, best and trigger prices); signals it or a cooldown skipped carry
 * PROTECTIVE_EXIT / COOLDOWN as their reason. `risk_state` is the risk engine's state the cycle
 * decided in; in `reducing` the engine's own closes are in `risk` with `by: "risk"`. `candles` is the
 * bar each symbol's feed just closed (src/domain/cycle-candles.ts), for the console's candle chart.
 */
import type { CycleRecord } from '../../machines/cycle.machine.js';
import type { ProjectedFigures } from '../domain/risk/risk-engine.js';
import type { Signal } from '../domain/signal.js';

/** The figures an operator reads, with snake_case keys like the rest of the entry. */
function projected(f: ProjectedFigures): Record<string, number | null> {
  return {
    symbol_exposure: f.symbolExposure,
    total_exposure: f.totalExposure,
    leverage: f.leverage,
    drawdown: f.drawdown,
    margin_used: f.marginUsed,
  };
}

export function decisionEntry(
  record: CycleRecord,
  durationMs: number,
): { symbol: string | null; body: Record<string, unknown> } {
  const ranked = record.arbitration?.ranked ?? [];
  // A selected signal the allocator made nothing of (within the band, already flat, the order budget
  // spent) is recorded with that reason, not as selected: it changed nothing.
  const skipped = skippedCodes(record.proposals);
  const signals = ranked.length
    ? ranked.map((r) => {
        const code = r.selected ? skipped?.get(r.signal) : undefined;
        return {
          ...r.signal,
          weight: r.weight,
          score: r.score,
          selected: r.selected && code === undefined,
          reason: code ?? r.reason,
        };
      })
    : record.replies.flatMap((r) => r.signals);
  const selected = record.arbitration?.selected ?? [];
  const symbol = record.proposals.find((p) => p.order)?.order?.symbol ?? selected[0]?.symbol ?? null;
  const account = record.account;
  const body: Record<string, unknown> = {
    cycle: record.cycle,
    epoch: record.epoch,
    outcome: record.outcome,
    error: record.error,
    duration_ms: durationMs,
    decided: record.outcomes.some((o) => o.status === 'submitted'),
    // The risk engine's state the cycle decided in (active, reducing, halted); null when not reached.
    risk_state: record.riskState ?? null,
    signals,
    // "agent: SYMBOL: message", as entries have always had it (the console reads old and new alike).
    agent_errors: agentErrors(record.replies),
    // Signals discarded by the contract (another agent's or symbol's, bad numbers): INVALID_SIGNAL.
    invalid_signals: invalidSignals(record.replies),
    selected,
    proposals: record.proposals.map(proposalEntry),
    risk: record.verdicts.map((v) => ({
      client_order_id: v.order.clientOrderId,
      symbol: v.order.symbol,
      // `risk`: the engine's own close in `reducing` (no strategy asked for it); null: a proposal's order.
      by: v.by ?? null,
      approved: v.decision.approved,
      reduce_only: v.order.reduceOnly,
      before: v.decision.impact ? projected(v.decision.impact.before) : null,
      after: v.decision.impact ? projected(v.decision.impact.after) : null,
      resting_orders_counted: v.decision.impact?.restingCounted ?? null,
      pending_orders_counted: v.decision.impact?.pendingCounted ?? null,
      // A reduce-only close the liquidity guard scaled: the quantity signed (the proposal has the asked one).
      scaled_qty: v.decision.scaledQty ?? null,
      guards: v.decision.checks.map((c) => ({
        guard: c.guard,
        passed: c.passed,
        code: c.code,
        value: c.value,
        limit: c.limit,
      })),
      token: v.approval?.token ?? null,
      expires_at: v.approval ? new Date(v.approval.expiresAt).toISOString() : null,
    })),
    submissions: record.outcomes,
    account: account
      ? {
          nav: account.nav,
          peak_nav: account.peakNav,
          cash: account.cash,
          realized_pnl: account.realizedPnl,
          unrealized_pnl: account.unrealizedPnl,
          positions: account.positions.map((p) => ({ symbol: p.symbol, qty: p.qty })),
        }
      : null,
  };
  // [open time, open, high, low, close] of the bar each feed just closed: the console's candle chart.
  if (record.candles) body.candles = record.candles;
  return { symbol, body };
}

/** Each skipped proposal's signal → its code; undefined when none was skipped (most cycles of a quiet run). */
function skippedCodes(proposals: CycleRecord['proposals']): Map<Signal, string> | undefined {
  let codes: Map<Signal, string> | undefined;
  for (const p of proposals) if (p.skipped) (codes ??= new Map()).set(p.signal, p.skipped.code);
  return codes;
}

/** "agent: SYMBOL: message", as entries have always had it (the console reads old and new alike). */
function agentErrors(replies: CycleRecord['replies']): string[] {
  const out: string[] = [];
  for (const r of replies) for (const e of r.errors) out.push(`${r.agent}: ${e.symbol}: ${e.message}`);
  return out;
}

function invalidSignals(replies: CycleRecord['replies']): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const r of replies) if (r.invalid) for (const i of r.invalid) out.push({ agent: r.agent, ...i });
  return out;
}

/** A proposal as the entry has it; `exit` only on a protective exit (absent for a signal's order). */
function proposalEntry(p: CycleRecord['proposals'][number]): Record<string, unknown> {
  const entry: Record<string, unknown> = { signal: p.signal, order: p.order, skipped: p.skipped };
  if (p.exit)
    entry.exit = {
      reason: p.exit.reason,
      entry_price: p.exit.entryPrice,
      best_price: p.exit.bestPrice,
      trigger_price: p.exit.triggerPrice,
    };
  entry.sizing = p.sizing
    ? {
        kind: p.sizing.kind,
        target_qty: p.sizing.target,
        expected_qty: p.sizing.expected,
        wanted_qty: p.sizing.wanted,
        qty: p.sizing.qty,
        scaled_by: p.sizing.scaledBy,
      }
    : null;
  return entry;
}
