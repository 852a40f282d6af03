/**
 * A generated simulation run for the performance tests: random-walk marks, random fills by random
 * strategies (a few liquidations), funding every 8 hours and denials, from a fixed seed. It keeps
 * its own perpetual-futures ledger (average cost, cash += realized − fee + funding, NAV = cash +
 * Σ qty × (mark − entry)), independent of the tracker, so the tracker's PnL split can be checked
 * against a NAV it did not compute.
 */
import type { CycleObservation, TradeObservation } from '../../../src/domain/performance/observations.js';
import { seededRandom } from '../../../src/domain/seeded-random.js';

export type RunEvent =
  | { type: 'cycle'; obs: CycleObservation }
  | { type: 'trade'; trade: TradeObservation }
  | { type: 'denial'; guard: string };

export interface SyntheticRunOptions {
  cycles: number;
  seed: number;
  symbols?: string[];
  strategies?: string[];
  startingCash?: number;
  cycleMs?: number;
  /** Probability of a fill per cycle and symbol. */
  tradeChance?: number;
  /** Report funding per symbol (true) or only the account total (false). */
  fundingBySymbol?: boolean;
  startTs?: number;
}

/** A seeded generator for test data (src/domain/seeded-random.ts). */
export const prng = seededRandom;

const GUARDS = ['drawdown', 'leverage', 'liquidity', 'exposure'];

export function* syntheticRun(options: SyntheticRunOptions): Generator<RunEvent> {
  const symbols = options.symbols ?? ['BTCUSDT', 'ETHUSDT'];
  const strategies = options.strategies ?? ['momentum', 'mean_reversion'];
  const cycleMs = options.cycleMs ?? 60_000;
  const tradeChance = options.tradeChance ?? 0.05;
  const random = prng(options.seed);
  const state = symbols.map((symbol, i) => ({ symbol, mark: 100 * (i + 1), qty: 0, entry: 0, funding: 0 }));
  let cash = options.startingCash ?? 10_000;
  let fees = 0;
  let funding = 0;
  let orderSeq = 0;
  let ts = options.startTs ?? Date.UTC(2026, 0, 1);

  for (let c = 0; c < options.cycles; c++) {
    ts += cycleMs;
    for (const s of state) {
      s.mark = Math.max(1, s.mark * (1 + (random() - 0.5) * 0.004));
      if ((c + 1) % 480 === 0 && s.qty !== 0) {
        const payment = -s.qty * s.mark * 0.0001;
        s.funding += payment;
        funding += payment;
        cash += payment;
      }
      if (random() >= tradeChance) continue;
      if (random() < 0.2) {
        yield { type: 'denial', guard: GUARDS[Math.floor(random() * GUARDS.length)]! };
        continue;
      }
      const liquidation = s.qty !== 0 && random() < 0.03;
      const side: 'BUY' | 'SELL' = liquidation ? (s.qty > 0 ? 'SELL' : 'BUY') : random() < 0.5 ? 'BUY' : 'SELL';
      const qty = liquidation ? Math.abs(s.qty) : Math.round((0.5 + random() * 2) * 1000) / 1000;
      const price = s.mark * (side === 'BUY' ? 1.0002 : 0.9998);
      const maker = random() < 0.4;
      const fee = qty * price * (maker ? 0.0002 : 0.0005);
      const signed = side === 'BUY' ? qty : -qty;
      // Average-cost ledger: realized PnL on the reducing part, a new entry on what opens.
      if (s.qty !== 0 && Math.sign(signed) !== Math.sign(s.qty)) {
        const closing = Math.min(qty, Math.abs(s.qty));
        cash += closing * (price - s.entry) * Math.sign(s.qty);
        const after = s.qty + signed;
        s.entry = Math.abs(after) < 1e-12 ? 0 : Math.sign(after) === Math.sign(s.qty) ? s.entry : price;
        s.qty = Math.abs(after) < 1e-12 ? 0 : after;
      } else {
        s.entry = (s.entry * Math.abs(s.qty) + price * qty) / (Math.abs(s.qty) + qty);
        s.qty += signed;
      }
      cash -= fee;
      fees += fee;
      yield {
        type: 'trade',
        trade: {
          ts,
          clientOrderId: `sim-${++orderSeq}`,
          symbol: s.symbol,
          side,
          qty,
          price,
          fee,
          liquidity: maker ? 'maker' : 'taker',
          strategy: liquidation ? null : strategies[Math.floor(random() * strategies.length)]!,
          kind: liquidation ? 'liquidation' : 'order',
        },
      };
    }
    let nav = cash;
    for (const s of state) nav += s.qty * (s.mark - s.entry);
    const obs: CycleObservation = {
      ts,
      nav,
      cash,
      positions: state.filter((s) => s.qty !== 0).map((s) => ({ symbol: s.symbol, qty: s.qty, markPrice: s.mark })),
      fundingPnl: funding,
      feesPaid: fees,
      marks: Object.fromEntries(state.map((s) => [s.symbol, s.mark])),
    };
    if (options.fundingBySymbol !== false)
      obs.fundingBySymbol = Object.fromEntries(state.map((s) => [s.symbol, s.funding]));
    yield { type: 'cycle', obs };
  }
}
