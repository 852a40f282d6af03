/**
 * A run's signal funnel per strategy (summary.json `signal_funnel`): the cycles' fates
 * (./signal-funnel.ts) counted, with an order's later fill moving its signal from `ordered` to `filled`
 * (a market order fills at the next bar's open in a replay, after the cycle that sized it). The
 * orders waiting for a fill are remembered up to ORDER_MEMORY, as the run observer remembers order
 * strategies; an older one's fill no longer moves its signal.
 */
import { sortedRecord } from './performance/run-summary.js';
import type { SignalFate } from './signal-funnel.js';

export interface StrategyFunnel {
  /** Every signal the strategy sent, the errors and invalid ones included: the sum of the rest. */
  signals: number;
  filled: number;
  /** Approved and sent, not filled by the end of the run. */
  ordered: number;
  /** By the order manager's or the venue's code (VENUE_REJECTED). */
  refused: Record<string, number>;
  /** By the risk guard's code. */
  risk_denied: Record<string, number>;
  /** By the arbiter's reason or the allocator's skip code. */
  skipped: Record<string, number>;
  /** Signals that asked for what was already so (HOLDING, NOTHING_TO_EXIT, ALREADY_FLAT). */
  no_change: Record<string, number>;
  invalid: number;
  errored: number;
}

const ORDER_MEMORY = 10_000;

interface Counts {
  signals: number;
  filled: number;
  ordered: number;
  invalid: number;
  errored: number;
  refused: Map<string, number>;
  risk_denied: Map<string, number>;
  skipped: Map<string, number>;
  no_change: Map<string, number>;
}

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

export class FunnelTally {
  private readonly counts = new Map<string, Counts>();
  /** client order id → the still unfilled `ordered` signal it was sized for (shared by a flip's two orders). */
  private readonly waiting = new Map<string, { agent: string; filled: boolean }>();

  constructor(strategies: readonly string[] = []) {
    for (const s of strategies) this.of(s);
  }

  add(fates: readonly SignalFate[]): void {
    for (const f of fates) {
      const c = this.of(f.agent);
      c.signals += 1;
      switch (f.outcome) {
        case 'filled':
        case 'ordered':
        case 'invalid':
        case 'errored':
          c[f.outcome] += 1;
          break;
        default:
          bump(c[f.outcome], f.reason);
      }
      if (f.outcome !== 'ordered') continue;
      const entry = { agent: f.agent, filled: false };
      for (const id of f.orders) {
        this.waiting.set(id, entry);
        if (this.waiting.size > ORDER_MEMORY) this.waiting.delete(this.waiting.keys().next().value as string);
      }
    }
  }

  /** A fill of `clientOrderId`: its signal, if still only ordered, becomes filled. */
  filled(clientOrderId: string): void {
    const entry = this.waiting.get(clientOrderId);
    if (entry === undefined) return;
    this.waiting.delete(clientOrderId);
    if (entry.filled) return;
    entry.filled = true;
    const c = this.of(entry.agent);
    c.ordered -= 1;
    c.filled += 1;
  }

  summary(): Record<string, StrategyFunnel> {
    const out = new Map<string, StrategyFunnel>();
    for (const [agent, c] of this.counts)
      out.set(agent, {
        signals: c.signals,
        filled: c.filled,
        ordered: c.ordered,
        refused: sortedRecord(c.refused),
        risk_denied: sortedRecord(c.risk_denied),
        skipped: sortedRecord(c.skipped),
        no_change: sortedRecord(c.no_change),
        invalid: c.invalid,
        errored: c.errored,
      });
    return sortedRecord(out);
  }

  private of(agent: string): Counts {
    let c = this.counts.get(agent);
    if (c === undefined)
      this.counts.set(
        agent,
        (c = {
          signals: 0,
          filled: 0,
          ordered: 0,
          invalid: 0,
          errored: 0,
          refused: new Map(),
          risk_denied: new Map(),
          skipped: new Map(),
          no_change: new Map(),
        }),
      );
    return c;
  }
}
