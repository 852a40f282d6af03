/**
 * The DecisionLog entry of one cycle (what GET /reports/decisions serves): the signals with their
 * weights and scores, the selection, the proposed orders, each guard's value/limit/verdict, the
 * tokens, the submissions, the account, the control epoch and the duration. Written for every
 * cycle, also when nothing was decided.
 */
import type { CycleRecord } from '../../machines/cycle.machine.js';

export function decisionEntry(
  record: CycleRecord,
  durationMs: number,
): { symbol: string | null; body: Record<string, unknown> } {
  const ranked = record.arbitration?.ranked ?? [];
  const signals = ranked.length
    ? ranked.map((r) => ({ ...r.signal, weight: r.weight, score: r.score, selected: r.selected, reason: r.reason }))
    : record.replies.flatMap((r) => r.signals);
  const selected = record.arbitration?.selected ?? [];
  const symbol = record.proposals.find((p) => p.order)?.order?.symbol ?? selected[0]?.symbol ?? null;
  const account = record.account;
  return {
    symbol,
    body: {
      cycle: record.cycle,
      epoch: record.epoch,
      outcome: record.outcome,
      error: record.error,
      duration_ms: durationMs,
      decided: record.outcomes.some((o) => o.status === 'submitted'),
      signals,
      agent_errors: record.replies.flatMap((r) => r.errors.map((e) => `${r.agent}: ${e}`)),
      selected,
      proposals: record.proposals.map((p) => ({ signal: p.signal, order: p.order, skipped: p.skipped })),
      risk: record.verdicts.map((v) => ({
        client_order_id: v.order.clientOrderId,
        symbol: v.order.symbol,
        approved: v.decision.approved,
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
    },
  };
}
