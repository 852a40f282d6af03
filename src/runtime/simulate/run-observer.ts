/**
 * What a simulation run records after each cycle, read from what the trading system already says:
 * fills from its event lines (`order_filled`, and `position_liquidated` for the venue's closes;
 * a `position_exit` line marks the fill of its client order id with the exit's reason, and the
 * cycle's record marks the risk engine's own closes `risk_reduce` and its trims `risk_trim`),
 * the strategies' errors (`agent_error`),
 * the account from the venue, the prices from the cycle's market, the denials and each order's
 * strategy from the cycle's record, and what became of each signal (src/domain/signal-funnel.ts).
 * Nothing here changes how the system trades. The strategy of an
 * order is remembered until it fills (bounded: a resting order is forgotten after ORDER_MEMORY
 * newer orders, and its fills then count as unattributed).
 */
import { isTrimOrderId } from '../../domain/risk/cost-trims.js';
import type { CycleRecord } from '../../../machines/cycle.machine.js';
import type { EventLine, OrderFilledLine } from '../../domain/event-lines.js';
import type { MarketView } from '../../domain/market.js';
import { cycleFunnel } from '../../domain/signal-funnel.js';
import type { SignalFate } from '../../domain/signal-funnel.js';
import type { AccountSnapshot } from '../../domain/portfolio.js';
import type { CycleObservation, TradeObservation } from '../../domain/performance/observations.js';
import type { AgentErrorObservation } from '../../domain/performance/run-summary.js';

export interface RunSink {
  cycle(observation: CycleObservation): void;
  trade(trade: TradeObservation): void;
  denial(guard: string): void;
  /** What became of each signal of a cycle (its later fills arrive through `trade`). */
  signals(fates: readonly SignalFate[]): void;
  agentError(error: AgentErrorObservation): void;
}

const ORDER_MEMORY = 10_000;

/** Fills a strategy answers for: its orders and the protective exits of its positions. */
const byStrategy = (kind: TradeObservation['kind']) =>
  kind !== 'liquidation' && kind !== 'deleverage' && kind !== 'risk_reduce' && kind !== 'risk_trim';

/** The risk engine's own orders (its closes in `reducing`, its trims): their fills are its, not a strategy's. */
function markEngineFills(pending: readonly TradeObservation[], clientOrderId: string): void {
  for (const trade of pending)
    if (trade.clientOrderId === clientOrderId) trade.kind = isTrimOrderId(clientOrderId) ? 'risk_trim' : 'risk_reduce';
}

/** An order's fill as the run records it, with its itemised costs when the venue gave them. */
function filledTrade(line: OrderFilledLine, ts: number, strategy: string | null): TradeObservation {
  return {
    ts,
    clientOrderId: line.client_order_id,
    symbol: line.symbol,
    side: line.side,
    qty: line.qty,
    price: line.price,
    fee: line.fee,
    liquidity: line.liquidity,
    ...(line.spread_cost !== undefined && { spreadCost: line.spread_cost }),
    ...(line.slippage_cost !== undefined && { slippageCost: line.slippage_cost }),
    strategy,
    kind: 'order',
  };
}

export interface RunObserver {
  /** Every event line the trading system emits during the run. */
  line(line: EventLine): void;
  /** After a cycle settled: its record, the account after it and the market it read. */
  cycleEnded(record: CycleRecord | null, account: AccountSnapshot, market: MarketView | null, ts: number): void;
}

export function createRunObserver(sink: RunSink): RunObserver {
  const strategyOf = new Map<string, string>();
  const pending: TradeObservation[] = [];
  let lastCycle = -1;
  let now = 0;

  return {
    line(line) {
      if (line.event === 'order_filled') {
        pending.push(filledTrade(line, now, strategyOf.get(line.client_order_id) ?? null));
      } else if (line.event === 'position_exit') {
        // It follows its order_filled line in the same cycle: the fill is still pending here.
        for (const trade of pending) if (trade.clientOrderId === line.client_order_id) trade.kind = line.reason;
      } else if (line.event === 'agent_error') {
        sink.agentError({ agent: line.agent, symbol: line.symbol, message: line.message });
      } else if (line.event === 'position_liquidated') {
        pending.push({
          ts: now,
          clientOrderId: `liquidation-${line.symbol}`,
          symbol: line.symbol,
          side: line.side,
          qty: line.qty,
          price: line.price,
          // Both fees are the account's (the liquidation fee on top of the taker fee, issue 20).
          fee: line.fee + line.liquidation_fee,
          liquidity: 'taker',
          ...(line.insurance_cover !== 0 && { insuranceCover: line.insurance_cover }),
          strategy: null,
          kind: 'liquidation',
        });
      }
    },

    cycleEnded(record, account, market, ts) {
      now = ts;
      if (record !== null && record.cycle !== lastCycle) {
        lastCycle = record.cycle;
        sink.signals(cycleFunnel(record));
        for (const proposal of record.proposals) {
          if (proposal.order === null) continue;
          strategyOf.set(proposal.order.clientOrderId, proposal.signal.agent);
          if (strategyOf.size > ORDER_MEMORY) strategyOf.delete(strategyOf.keys().next().value as string);
        }
        for (const verdict of record.verdicts) {
          if (verdict.by === 'risk') markEngineFills(pending, verdict.order.clientOrderId);
          if (verdict.approval !== null) continue;
          const failed = verdict.decision.checks.find((c) => !c.passed);
          if (failed) sink.denial(failed.guard);
        }
      }
      // Fills were seen before the record that names their strategy: attribute them now.
      for (const trade of pending) {
        sink.trade({
          ...trade,
          ts,
          strategy: trade.strategy ?? (byStrategy(trade.kind) ? (strategyOf.get(trade.clientOrderId) ?? null) : null),
        });
      }
      pending.length = 0;
      const marks: Record<string, number> = {};
      if (market !== null) for (const [symbol, snapshot] of market) marks[symbol] = snapshot.last;
      sink.cycle({
        ts,
        nav: account.nav,
        cash: account.cash,
        positions: account.positions.map((p) => ({ symbol: p.symbol, qty: p.qty, markPrice: p.markPrice })),
        fundingPnl: account.fundingPnl,
        ...(account.fundingBySymbol !== undefined && { fundingBySymbol: account.fundingBySymbol }),
        feesPaid: account.feesPaid,
        marks,
      });
    },
  };
}
