/**
 * Kill with flatten on an exchange's bad day (issue 32, item 2): `tcs start` in live mode against the
 * fake exchange holds BTC +0.015 and ETH −0.284 (adopted at start) and one resting order; the
 * exchange then turns bad — half of all requests answered 503 -1001 (a seeded storm), or every
 * request carried out and answered 2–5 s after it arrives — and the kill switch is pressed with
 * `flatten: true` over HTTP. Timed from the kill's request until the fake holds no position and no
 * open order (polled every 50 ms). The aim: flat within 30 s in both bad cases.
 *
 *   node bin/run-ts.mjs bench/live-kill-flatten.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey } from '../src/domain/keys.js';
import { openTradingFake } from '../test/support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../test/support/fake-exchange/ccxt-client.js';
import { liveEnvFor } from '../test/support/fake-exchange/live-env.js';
import { startTcs } from '../test/support/processes.js';
import { openTestStore } from '../test/support/stores.js';
import { PERMISSIVE_ENV } from '../test/support/trading.js';
import { printResult, runDirectly } from './support.js';
import type { BenchResult } from './support.js';

const IDLE = new URL('../test/fixtures/strategies/plain-agent.js', import.meta.url).pathname;
const GIVE_UP_MS = 120_000;

interface Case {
  name: string;
  bad(t: TradingFake, trial: number): void;
}

const CASES: Case[] = [
  { name: 'normal exchange', bad: () => {} },
  { name: '50 % of requests 503 -1001', bad: (t, trial) => void t.fake.faults.storm(0.5, 32 + trial) },
  { name: '2–5 s per request', bad: (t, trial) => t.fake.faults.slow(2_000, 5_000, 1 + trial) },
];
const TRIALS = Number(process.env.KILL_FLATTEN_TRIALS ?? 3);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One kill with flatten: ms from the kill's request until flat with nothing open, or null past GIVE_UP_MS. */
async function trial(c: Case, n: number): Promise<number | null> {
  const t = await openTradingFake({ deposit: 100_000, start: Date.now() });
  const store = await openTestStore('sqlite');
  const dir = mkdtempSync(join(tmpdir(), 'tcs-bench-'));
  const key = generateKey();
  const proc = startTcs(
    ['start'],
    {
      ...PERMISSIVE_ENV,
      ...liveEnvFor(t.fake.url),
      CYCLE_SECONDS: '0.25',
      SERVICE_API_KEY: key,
      RISK_HMAC_SECRET: generateKey(),
      STORE_URL: store.url,
      PORT: '0',
      LOG_LEVEL: 'info',
      HEARTBEAT_MS: '200',
      STORE_TIMEOUT_MS: '3000',
      SYMBOLS: 'BTCUSDT,ETHUSDT',
      STRATEGIES: IDLE,
      ORDER_STYLE: 'market',
    },
    dir,
  );
  try {
    await t.exchange.loadMarkets();
    t.fake.venue.setPosition('BTCUSDT', 0.015);
    t.fake.venue.setPosition('ETHUSDT', -0.284);
    const [, base] = await proc.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/);
    // A few cycles, so the start's reconciliation adopted both positions.
    for (let i = 0; (proc.stdout().match(/"event":"cycle_end"/g) ?? []).length < 3; i++) {
      if (i > 400) throw new Error('no cycles ran');
      await sleep(50);
    }
    await t.exchange.createOrder('ETH/USDT:USDT', 'limit', 'buy', 0.1, 1_000, { clientOrderId: `resting-${n}` });
    c.bad(t, n);
    const started = performance.now();
    const res = await fetch(`${base}/control/kill-switch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'bench: a bad day', flatten: true }),
    });
    if (res.status !== 200) throw new Error(`kill answered ${res.status}`);
    for (;;) {
      const account = t.fake.venue.account();
      if (account.positions.every((p) => p.qty === 0) && t.fake.venue.open().length === 0)
        return performance.now() - started;
      if (performance.now() - started > GIVE_UP_MS) return null;
      await sleep(50);
    }
  } finally {
    t.fake.faults.calm();
    await proc.stop();
    await t.close();
    await store.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchResult> {
  const began = performance.now();
  const rows: string[][] = [];
  const figures: BenchResult['figures'] = [];
  for (const c of CASES) {
    const times: Array<number | null> = [];
    for (let n = 0; n < (c.name === 'normal exchange' ? 1 : TRIALS); n++) times.push(await trial(c, n));
    const shown = times.map((ms) =>
      ms === null ? `not flat in ${GIVE_UP_MS / 1000} s` : `${(ms / 1000).toFixed(1)} s`,
    );
    const worst = times.some((ms) => ms === null) ? null : Math.max(...(times as number[]));
    rows.push([c.name, String(times.length), shown.join(', ')]);
    figures.push({
      figure: `live kill with flatten, 2 positions + 1 resting order, ${c.name}: time to flat (worst of ${times.length})`,
      aim: c.name === 'normal exchange' ? '—' : '30 s',
      latest: worst === null ? `not flat in ${GIVE_UP_MS / 1000} s` : `${(worst / 1000).toFixed(1)} s`,
      met: c.name === 'normal exchange' ? null : worst !== null && worst <= 30_000,
    });
  }
  const result: BenchResult = {
    id: 'live-kill-flatten',
    title: 'Live kill with flatten on a bad day',
    command: 'node bin/run-ts.mjs bench/live-kill-flatten.bench.ts',
    method: [
      '`tcs start` (live, 0.25 s cycles, SQLite) against the fake exchange holding BTC +0.015 and ETH −0.284 and one resting ETH order; the exchange turns bad, then POST /control/kill-switch with flatten: true; timed until the fake holds no position and no open order (polled every 50 ms).',
      `Bad cases: a seeded 503 -1001 storm on half of all requests (seeds 32…), and every request answered 2–5 s after it arrives (seeded uniform); ${TRIALS} trials each.`,
    ],
    tables: [{ headers: ['exchange', 'trials', 'time to flat'], rows }],
    figures,
    aims: [],
    notes: [
      'At 2–5 s per request the time is sequential round trips: the kill’s cancels, the flatten round’s account read (open orders, then balance and positions), then per symbol — side by side — a look-up by client id, the order and its trades. 54–56 s before closes went side by side, publications stopped blocking the next command and a straddled account read reused its last order read.',
    ],
    seconds: (performance.now() - began) / 1000,
    data: rows,
  };
  printResult(result);
  return result;
}

runDirectly(run);
