/**
 * Kill → exchange orders cancelled, on the live venue against the fake exchange (issue 21): how long
 * `LiveVenue.cancelAll()` — what the order manager runs for a kill — takes from the call until every
 * resting order on the exchange is cancelled, through a real ccxt binanceusdm (signing, its
 * throttle at 1 ms per weight, HTTP on loopback). Per round: `ORDERS_PER_SYMBOL` resting orders on
 * each of three symbols are placed, then cancelled, and the fake is checked to hold none. This is
 * the adapter's part of a kill; the control plane's part (API → store → trading process) is
 * kill-latency.bench.ts. Loopback has no network latency: against Binance add its round trip
 * (the three symbols' calls go out at once, so about two round trips in all).
 *
 *   node bin/run-ts.mjs bench/live-kill.bench.ts        # LIVE_KILL_ROUNDS=200 ORDERS_PER_SYMBOL=3
 */
import ccxt from 'ccxt';
import { symbolMap } from '../src/adapters/live-venue/ccxt-mapping.js';
import { LiveVenue } from '../src/adapters/live-venue/live-venue.js';
import { gateRequests } from '../src/adapters/live-venue/request-gate.js';
import { openTradingFake } from '../test/support/fake-exchange/ccxt-client.js';
import { round } from '../test/support/fake-exchange/decimals.js';
import { instrumentById } from '../test/support/fake-exchange/market-data.js';
import { percentile } from './stats.js';
import { printResult, runDirectly } from './support.js';
import type { BenchResult } from './support.js';

const ROUNDS = Number(process.env.LIVE_KILL_ROUNDS ?? 200);
const PER_SYMBOL = Number(process.env.ORDERS_PER_SYMBOL ?? 3);
const SYMBOLS = [
  ['BTCUSDT', 'BTC/USDT:USDT'],
  ['ETHUSDT', 'ETH/USDT:USDT'],
  ['SOLUSDT', 'SOL/USDT:USDT'],
] as const;

export async function run(): Promise<BenchResult> {
  const began = performance.now();
  const t = await openTradingFake({ deposit: 10_000_000 });
  await t.exchange.loadMarkets();
  const venue = new LiveVenue({
    exchange: t.exchange,
    errors: ccxt,
    gate: gateRequests(t.exchange, { monotonic: () => performance.now(), now: () => Date.now() }),
    symbols: symbolMap(SYMBOLS),
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  });
  const samples: number[] = [];
  let seq = 0;
  for (let r = 0; r < ROUNDS; r++) {
    for (const [symbol] of SYMBOLS) {
      const inst = instrumentById(symbol)!;
      const bid = t.fake.venue.book(inst).bids[0]![0];
      for (let k = 0; k < PER_SYMBOL; k++) {
        const price = round(bid * (0.8 - k * 0.01), Math.max(0, -Math.floor(Math.log10(Number(inst.tickSize)))));
        const qty = round((200 / price) * 1.5, Math.max(0, -Math.floor(Math.log10(Number(inst.stepSize)))));
        await venue.submit(
          {
            clientOrderId: `kill-bench-${++seq}`,
            symbol,
            side: 'BUY',
            qty,
            type: 'limit',
            limitPrice: price,
            reduceOnly: false,
          },
          new Map(),
        );
      }
    }
    if (t.fake.venue.open().length !== SYMBOLS.length * PER_SYMBOL) throw new Error('orders did not rest');
    const started = process.hrtime.bigint();
    const cancelled = await venue.cancelAll();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (cancelled.length !== SYMBOLS.length * PER_SYMBOL || t.fake.venue.open().length !== 0)
      throw new Error('cancel-all left orders on the exchange');
  }
  await t.close();
  samples.sort((a, b) => a - b);
  const f = (p: number) => `${percentile(samples, p).toFixed(1)} ms`;
  const line = `p50 ${f(50)}, p90 ${f(90)}, p99 ${f(99)}, max ${samples.at(-1)!.toFixed(1)} ms`;
  const result: BenchResult = {
    id: 'live-kill',
    title: "Live venue: kill → the exchange's orders cancelled",
    command: 'node bin/run-ts.mjs bench/live-kill.bench.ts',
    method: [
      `LiveVenue.cancelAll() timed from the call until it returns, through a real ccxt binanceusdm against the fake exchange (loopback), ${ROUNDS} rounds, ${PER_SYMBOL} resting orders on each of ${SYMBOLS.length} symbols; the fake is checked to hold none after each round.`,
    ],
    tables: [{ headers: ['rounds', 'cancel-all'], rows: [[String(ROUNDS), line]] }],
    figures: [
      {
        figure: `live kill: cancel-all of ${PER_SYMBOL} resting orders on ${SYMBOLS.length} symbols against the fake exchange, p99`,
        aim: '—',
        latest: `${f(99)} (p50 ${f(50)})`,
        met: null,
      },
    ],
    aims: [],
    notes: [],
    seconds: (performance.now() - began) / 1000,
    data: samples,
  };
  printResult(result);
  return result;
}

runDirectly(run);
