/**
 * Request weight of live trading (issue 32, items 3 and 8): a trading system in this process, live
 * venue and live market feed on real ccxt binanceusdm clients, against the fake exchange, which
 * weighs every request as Binance USDⓈ-M does (test/support/fake-exchange/request-weight.ts). At
 * 60 s cycles for 1, 2 and 3 symbols (the fake lists three) at once, each on its own fake: the
 * fake's weight counter is read at each cycle's start, and the steady cycles' differences are the
 * weight per cycle, which at 60 s cycles is the weight per minute. 10 symbols is extrapolated from
 * the per-symbol slope. Real time: about 3 minutes.
 *
 *   node bin/run-ts.mjs bench/live-weight.bench.ts        # LIVE_WEIGHT_CYCLES=4
 */
import { openTradingFake } from '../test/support/fake-exchange/ccxt-client.js';
import { liveEnvFor } from '../test/support/fake-exchange/live-env.js';
import { openLiveTrading, until } from '../test/support/live-trading.js';
import { openTestStore } from '../test/support/stores.js';
import { printResult, runDirectly } from './support.js';
import type { BenchResult } from './support.js';

const CYCLES = Number(process.env['LIVE_WEIGHT_CYCLES'] ?? 4);
const CASES = ['BTCUSDT', 'BTCUSDT,ETHUSDT', 'BTCUSDT,ETHUSDT,SOLUSDT'];

/** The weight spent between consecutive cycle starts, after the first (start-up) one. */
async function weightPerCycle(symbols: string): Promise<number[]> {
  const t = await openTradingFake({ deposit: 100_000, start: Date.now() });
  const s = await openTestStore('sqlite');
  const trading = await openLiveTrading(s.store, s.url, {
    ...liveEnvFor(t.fake.url),
    SYMBOLS: symbols,
    CYCLE_SECONDS: '60',
  });
  try {
    const totals: number[] = [];
    for (let c = 1; c <= CYCLES; c++) {
      await until(() => trading.lines.filter((l) => l.event === 'cycle_start').length >= c, `cycle ${c}`, 90_000);
      totals.push(t.fake.weight.total());
    }
    return totals.slice(1).map((v, i) => v - totals[i]!);
  } finally {
    await trading.close();
    await s.cleanup();
    await t.close();
  }
}

export async function run(): Promise<BenchResult> {
  const began = performance.now();
  const deltas = await Promise.all(CASES.map(weightPerCycle));
  const steady = deltas.map((d) => Math.max(...d));
  const perSymbol = (steady[2]! - steady[0]!) / 2;
  const ten = Math.round(steady[0]! + perSymbol * 9);
  const result: BenchResult = {
    id: 'live-weight',
    title: 'Live trading: request weight per cycle and per minute',
    command: 'node bin/run-ts.mjs bench/live-weight.bench.ts',
    method: [
      `A trading system in this process against the fake exchange (its weight counter: Binance's published weights), 60 s cycles, ${CYCLES} cycles per case, the 1-, 2- and 3-symbol cases at once on separate fakes; weight between cycle starts after the first, the largest taken.`,
    ],
    tables: [
      {
        headers: ['symbols', 'weight per cycle (each steady cycle)'],
        rows: CASES.map((c, i) => [String(c.split(',').length), deltas[i]!.join(', ')]),
      },
    ],
    figures: [
      {
        figure: 'live trading request weight per minute at 60 s cycles, 2 symbols (fake exchange)',
        aim: '—',
        latest: `${steady[1]} (per cycle ${steady[1]}; 1 symbol ${steady[0]}, 3 symbols ${steady[2]})`,
        met: null,
      },
      {
        figure: 'live trading request weight per minute at 60 s cycles, 10 symbols (extrapolated)',
        aim: '—',
        latest: `${ten} (${steady[0]} + ${perSymbol} per symbol beyond the first)`,
        met: null,
      },
    ],
    aims: [],
    notes: [],
    seconds: (performance.now() - began) / 1000,
    data: deltas,
  };
  printResult(result);
  return result;
}

runDirectly(run);
