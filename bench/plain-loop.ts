/**
 * The yardstick for `tcs simulate`'s throughput: the same domain functions a cycle runs — every
 * agent's signals, arbitration, sizing, the four guards with signing (the risk actor's pure
 * `review`), and the paper venue's fills on an in-process key-value store — called in a plain loop,
 * with no actors, no event store and no control store. What the simulator costs beyond this is the
 * actor system and the audit trail.
 */
import { performance } from 'node:perf_hooks';
import { analyseAll } from '../machines/agent.machine.js';
import { review } from '../machines/risk.machine.js';
import type { Verdict } from '../machines/messages.js';
import { createRunKv } from '../src/adapters/memory/run-kv.js';
import { createSyntheticFeed } from '../src/adapters/market-data/index.js';
import { openPaperVenue } from '../src/adapters/paper-venue/index.js';
import { allocate } from '../src/domain/allocation.js';
import { arbitrate } from '../src/domain/arbitration.js';
import type { Signal } from '../src/domain/signal.js';
import { signApproval } from '../src/domain/order-token.js';
import { loadStrategies } from '../src/strategies/registry.js';
import { ResampleCache } from '../src/domain/strategy-input.js';
import { PrivateBars } from '../src/domain/private-bars.js';
import { strategyHistory } from '../src/runtime/trading/strategy-history.js';
import type { TradingConfig } from '../src/runtime/trading/trading-config.js';
import { SIM_START } from './trading.js';

export interface PlainLoopResult {
  cycles: number;
  wallMs: number;
  orders: number;
}

export async function runPlainLoop(config: TradingConfig, cycles: number): Promise<PlainLoopResult> {
  const strategies = await loadStrategies(config.strategies, config.strategyParams);
  // Each agent's candle buffers, as its actor keeps them.
  const own = strategies.map(() => new PrivateBars());
  const history = strategyHistory(strategies, config.cycleMs);
  const feed = createSyntheticFeed({
    instruments: config.instruments,
    seed: config.marketSeed,
    stepMs: config.cycleMs,
    historyLength: history.bars,
  });
  let now = SIM_START;
  const clock = { now: () => now };
  const venue = await openPaperVenue({
    kv: createRunKv(),
    instruments: config.instruments,
    clock,
    config: { startingCash: config.startingCash, margin: config.margin },
  });
  const instruments = new Map(config.instruments.map((i) => [i.symbol, i]));
  const owners = new Map<string, string>();
  const risk = {
    limits: config.riskLimits,
    tokenTtlMs: config.tokenTtlMs,
    instruments: config.instruments,
    marginTable: config.margin,
    sign: (order: Parameters<typeof signApproval>[0], epoch: number, expiresAt: number) =>
      signApproval(order, { secret: config.hmacSecret, epoch, expiresAt }),
  };
  let orders = 0;
  const started = performance.now();
  for (let cycle = 1; cycle <= cycles; cycle++) {
    now += config.cycleMs;
    const market = await feed.next(now);
    await venue.onMarket(market);
    const account = await venue.account(market);
    const signals: Signal[] = [];
    const resampled = new ResampleCache(history.baseBarMs);
    strategies.forEach((agent, i) => {
      const request = {
        type: 'agent.analyse' as const,
        cycle,
        market,
        account,
        owners,
        resampled,
        replyTo: undefined as never,
      };
      signals.push(...analyseAll(agent, config.instruments, request, history.plans[i], own[i]).signals);
    });
    const holdings = new Map<string, string | null>(
      account.positions.filter((p) => p.qty !== 0).map((p) => [p.symbol, owners.get(p.symbol) ?? null]),
    );
    const { selected, maxOrders } = arbitrate(signals, config.arbitration, holdings);
    const proposals = allocate(
      selected,
      { account, market, instruments, cycle, owners, maxOrders },
      {
        riskFraction: config.riskFraction,
        noTradeBand: config.noTradeBand,
        orderStyle: config.orderStyle,
        sessionId: 'plain',
      },
    );
    const requested = proposals.flatMap((p) => (p.order ? [p.order] : []));
    if (requested.length === 0) continue;
    const { verdicts } = review(risk, {
      type: 'risk.evaluate',
      cycle,
      orders: requested,
      account,
      market,
      epoch: 0,
      now,
      replyTo: undefined as never,
    });
    for (const verdict of verdicts as Verdict[]) {
      if (!verdict.approval) continue;
      await venue.submit(verdict.order, market);
      orders += 1;
      const proposal = proposals.find((p) => p.order?.clientOrderId === verdict.order.clientOrderId);
      if (proposal && Math.sign(proposal.signal.direction) !== 0)
        owners.set(verdict.order.symbol, proposal.signal.agent);
      else owners.delete(verdict.order.symbol);
    }
  }
  return { cycles, wallMs: performance.now() - started, orders };
}
