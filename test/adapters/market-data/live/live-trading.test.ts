/**
 * Paper trading on live public data, as a real `tcs trade` process with MARKET_DATA=live:binanceusdm
 * pointed at the local fake exchange (LIVE_EXCHANGE_URL) on a temporary SQLite store: fills happen
 * at the fake's book; a burst of 429s is waited out and trading goes on; when the exchange goes
 * silent, after FEED_STALE_MS no order that adds exposure is approved (risk_rejected
 * LIQUIDITY_STALE) while reduce-only closes still go out; the process never crashes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../../../src/domain/keys.js';
import { startTcs } from '../../../support/processes.js';
import type { RunningProcess } from '../../../support/processes.js';
import { startFakeExchange } from '../../../support/fake-exchange/server.js';
import type { FakeExchange } from '../../../support/fake-exchange/server.js';
import { bookAt, instrumentById, MINUTE } from '../../../support/fake-exchange/market-data.js';

const FLIP = fileURLToPath(new URL('../../../fixtures/strategies/btc-flip-each-cycle.js', import.meta.url));

type Line = Record<string, unknown> & { event: string };
const lines = (proc: RunningProcess): Line[] =>
  proc
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);

let fake: FakeExchange | undefined;
let proc: RunningProcess | undefined;
let dir = '';

afterAll(async () => {
  await proc?.stop();
  await fake?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('tcs trade with MARKET_DATA=live:binanceusdm (fake exchange)', () => {
  it('trades on the fake prices, survives 429s, and opens no exposure once the exchange is silent', async () => {
    fake = await startFakeExchange({ seed: 11 });
    dir = mkdtempSync(join(tmpdir(), 'tcs-live-'));
    const started = Date.now();
    proc = startTcs(
      ['trade'],
      {
        STORE_URL: `sqlite:${join(dir, 'tcs.db')}`,
        RISK_HMAC_SECRET: generateKey(),
        CONTROL_PLANE_TIMEOUT: '0',
        MARKET_DATA: 'live:binanceusdm',
        LIVE_EXCHANGE_URL: fake.url,
        FEED_STALE_MS: '1500',
        CYCLE_SECONDS: '0.3',
        SYMBOLS: 'BTCUSDT',
        STRATEGIES: FLIP,
        RISK_FRACTION: '0.01',
        LOG_LEVEL: 'info',
      },
      dir,
    );

    // Fresh data: an opening fill at the fake's best ask.
    await proc.waitFor(/"event":"order_filled".*"side":"BUY"/, 20_000);
    const buy = lines(proc).find((l) => l.event === 'order_filled' && l.side === 'BUY')!;
    const btc = instrumentById('BTCUSDT')!;
    const minutes = [];
    for (let t = Math.floor(started / MINUTE) * MINUTE; t <= Date.now(); t += MINUTE) minutes.push(t);
    const asks = minutes.map((t) => bookAt(fake!.seed, btc, t).asks[0]![0]);
    expect(asks).toContain(buy.price);
    expect(proc.stderr()).toMatch(/live market data: instruments from the exchange/);

    // A burst of 429s: backed off, then trading goes on.
    fake.rateLimit(6, 1);
    await waitUntil(() => fake!.rateLimited() === 6, 15_000);
    const after429 = lines(proc).filter((l) => l.event === 'order_filled').length;
    await waitUntil(() => lines(proc!).filter((l) => l.event === 'order_filled').length >= after429 + 2, 15_000);
    expect(proc.child.exitCode).toBeNull();

    // Silence: stale after FEED_STALE_MS; openings refused, closes still pass.
    fake.hang();
    const silentFrom = lines(proc).length;
    await proc.waitFor(/"event":"risk_rejected".*"code":"LIQUIDITY_STALE"/, 15_000);
    await waitUntil(
      () =>
        lines(proc!)
          .slice(silentFrom)
          .filter((l) => l.event === 'risk_rejected' && l.code === 'LIQUIDITY_STALE').length >= 2,
      15_000,
    );
    const all = lines(proc);
    // The first refusal of the silence (the 429 burst's Retry-After may already have made data stale).
    const firstStale = all.findIndex(
      (l, i) => i >= silentFrom && l.event === 'risk_rejected' && l.code === 'LIQUIDITY_STALE',
    );
    const stale = all[firstStale]!;
    expect(stale).toMatchObject({ symbol: 'BTCUSDT', guard: 'liquidity', limit: 1500 });
    expect(stale.value as number).toBeGreaterThan(1500);

    // Replay the fills: after the first stale refusal no fill makes |position| larger.
    let position = 0;
    let closesAfterSilence = 0;
    all.forEach((line, i) => {
      if (line.event !== 'order_filled') return;
      const next = position + (line.side === 'BUY' ? 1 : -1) * (line.qty as number);
      if (i > firstStale) expect(Math.abs(next)).toBeLessThanOrEqual(Math.abs(position) + 1e-12);
      if (i > silentFrom && Math.abs(next) < Math.abs(position)) closesAfterSilence += 1;
      position = next;
    });
    expect(closesAfterSilence).toBeGreaterThanOrEqual(1);

    // Still running, and trading again once the exchange answers.
    expect(proc.child.exitCode).toBeNull();
    fake.resume();
    const beforeResume = lines(proc).length;
    await waitUntil(
      () =>
        lines(proc!)
          .slice(beforeResume)
          .some((l) => l.event === 'order_filled' && l.side === 'BUY'),
      15_000,
    );
    await proc.stop();
    expect(await proc.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(
        `condition not met within ${timeoutMs} ms\n${proc?.stdout().slice(-3000)}\n${proc?.stderr().slice(-3000)}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}
