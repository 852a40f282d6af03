/**
 * `tcs start` end to end against the fake of each exchange other than Binance (issue 33, "Done
 * when"; Binance has its own files, test/e2e/live-*.test.ts, on the same harness), as real processes:
 * 1. under `tcs start` (API, trader) with a strategy that flips every cycle: an order left on the
 *    exchange by hand is cancelled at start as foreign; every order the system fills is on the
 *    exchange under our client id; a position changed behind its back is drift and refuses openings
 *    (POSITION_DRIFT); the kill switch with `flatten: true` leaves no order and no position;
 * 2. the exchange bans the IP (Binance: 418; Bybit: a bare 403; OKX and Bitget document none, so the
 *    fake's proxy-style 418): an `exchange_banned` halt at once,
 *    and no request reaches the exchange while the ban holds;
 * 3. a long with STOP_LOSS under `tcs trade`, SIGKILLed: the exchange-side stop outlives it and
 *    closes the position when the mark crosses it, with nobody left to ask. That stop is what
 *    protects a position on an exchange without a dead-man's switch (Bybit, OKX, Bitget: their profiles'
 *    deadMansSwitchNote); where there is one, it is not armed over a resting stop (it would cancel
 *    it), and its own SIGKILL test is Binance's (live-execution.test.ts).
 * An exchange is one row of EXCHANGES, read from the fake's dialects. Client ids
 * given by hand are letters and digits only, which every exchange here accepts (OKX's rule).
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { exchangeProfile } from '../../src/adapters/exchanges/registry.js';
import { exchangeClientId } from '../../src/adapters/live-venue/client-ids.js';
import { generateKey } from '../../src/domain/keys.js';
import { placeByHand } from '../support/fake-exchange/ccxt-client.js';
import { fakeDialects } from '../support/fake-exchange/dialect-registry.js';
import { FAKE_CREDENTIALS } from '../support/fake-exchange/server.js';
import { openLiveE2e } from '../support/live-e2e.js';
import type { LiveE2e } from '../support/live-e2e.js';
import type { RunningProcess } from '../support/processes.js';

const FLIP = fileURLToPath(new URL('../fixtures/strategies/btc-flip-each-cycle.js', import.meta.url));
const LONG = fileURLToPath(new URL('../fixtures/strategies/btc-always-long.js', import.meta.url));

/**
 * The exchanges run here: every perpetual dialect of the fake's registry, by ccxt id, with the path
 * new orders are POSTed to on its fake. Binance USDⓈ-M passes too; its own files cover it (at a
 * minute a row, not twice). Spot (`tcs start` on Binance spot) is not run end to end yet.
 */
const COVERED_ELSEWHERE = new Set(['binanceusdm']);
const EXCHANGES = fakeDialects()
  .filter((d) => d.venueContract.kind !== 'spot' && !COVERED_ELSEWHERE.has(d.id))
  .map((d) => ({ id: d.id, orderPath: d.venueContract.createPath }));

type Line = Record<string, unknown> & { event: string };
const lines = (proc: RunningProcess): Line[] =>
  proc
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);

let e: LiveE2e | undefined;

afterEach(async () => {
  await e?.close();
  e = undefined;
});

/** Polls an async condition, bounded. */
async function waitUntilAsync(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(EXCHANGES)('tcs start live on the $id fake', ({ id, orderPath }) => {
  const rule = exchangeProfile(id).clientOrderId;

  it('cancels a foreign order, trades under our client ids, refuses openings on drift, and a kill with flatten leaves nothing', async () => {
    e = await openLiveE2e(`tcs-live-${id}-`, id);
    const { t, waitUntil } = e;
    await t.exchange.loadMarkets();
    await placeByHand(t.exchange, 'BTC/USDT:USDT', 'buy', 0.2, 1_000, 'byhand1');
    const key = generateKey();
    const system = e.start(['start'], e.env({ SERVICE_API_KEY: key, PORT: '0', STRATEGIES: FLIP }));
    const [, base] = await system.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/, 20_000);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(base + path, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });

    await system.waitFor(/"event":"orders_cancelled".*"reason":"foreign_orders"/, 20_000);
    expect(lines(system).find((l) => l.event === 'orders_cancelled')).toMatchObject({
      client_order_ids: ['byhand1'],
      count: 1,
    });
    expect(t.fake.venue.find('BTCUSDT', { clientOrderId: 'byhand1' })?.status).toBe('CANCELED');

    // Orders under our client ids: each fill the system reports is an order on the exchange under
    // the id it was sent as, filled there.
    await waitUntil(() => lines(system).filter((l) => l.event === 'order_filled').length >= 2, 20_000, 'two fills');
    for (const fill of lines(system).filter((l) => l.event === 'order_filled')) {
      const sentAs = exchangeClientId(String(fill.client_order_id), rule);
      expect(t.fake.venue.find('BTCUSDT', { clientOrderId: sentAs })?.status).toBe('FILLED');
    }

    // A position changed behind the system's back: drift, and openings refused until it ends.
    const held = () => t.fake.venue.account().positions.find((p) => p.symbol === 'BTCUSDT')?.qty ?? 0;
    t.fake.venue.setPosition('BTCUSDT', held() + 0.5);
    await system.waitFor(/"event":"position_drift","drift":\[\{"symbol":"BTCUSDT"/, 10_000);
    await system.waitFor(/"event":"order_rejected".*POSITION_DRIFT/, 10_000);
    const health = (await (await call('GET', '/health')).json()) as { status: string; reason?: string };
    expect(health.status).toBe('degraded');
    expect(health.reason).toMatch(/position drift: BTCUSDT holds/);
    // The drift is in the audit trail, so the notifier tells it (as the console's list shows).
    await waitUntilAsync(
      async () => {
        const notices = (await (await call('GET', '/reports/notifications?limit=50')).json()) as Array<{
          kind: string;
          title: string;
        }>;
        return notices.some((n) => n.kind === 'drift' && n.title === 'Position drift: BTCUSDT');
      },
      10_000,
      'a drift notification',
    );

    // An order resting when the kill comes; the kill with flatten leaves nothing.
    await placeByHand(t.exchange, 'BTC/USDT:USDT', 'buy', 0.2, 1_000, 'restingatkill');
    const res = await call('POST', '/control/kill-switch', { reason: `${id} e2e`, flatten: true });
    expect(res.status).toBe(200);
    await waitUntil(() => t.fake.venue.open().length === 0 && held() === 0, 20_000, 'no order and no position');
    expect(t.fake.venue.find('BTCUSDT', { clientOrderId: 'restingatkill' })?.status).toBe('CANCELED');
    const orders = () => t.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith(orderPath)).length;
    const sent = orders();
    expect(sent).toBeGreaterThan(2);
    // Killed: a few more cycles' time, and no order reaches the exchange.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(orders()).toBe(sent);
    expect(system.stdout() + system.stderr()).not.toContain(FAKE_CREDENTIALS.secret);
  }, 90_000);

  it("the exchange's IP ban (in its own words) halts trading at once, and nothing is sent while it holds", async () => {
    e = await openLiveE2e(`tcs-live-${id}-ban-`, id);
    const { t } = e;
    const trader = e.start(['trade'], e.env({ STRATEGIES: LONG }));
    await trader.waitFor(/"event":"cycle_end","cycle":2,/, 30_000);
    t.fake.faults.banFor(600);
    await trader.waitFor(/"event":"trading_halted","reason":"exchange_banned"/, 10_000);
    const sawHalt = performance.now();
    expect(trader.stderr()).toMatch(/the exchange banned this IP until \S+ \(\d+/);
    expect(t.fake.faults.bansAnswered()).toBeGreaterThanOrEqual(1);
    // Several cycles' time: every request answered with the ban arrived before the halt was printed.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(t.fake.faults.lastBanArrivedAt() ?? 0).toBeLessThanOrEqual(sawHalt);
  }, 60_000);

  it('after a SIGKILL, the exchange-side stop closes the position alone', async () => {
    e = await openLiveE2e(`tcs-live-${id}-kill-`, id);
    const { t, waitUntil } = e;
    const held = () => t.fake.venue.account().positions.find((p) => p.symbol === 'BTCUSDT')?.qty ?? 0;
    const stops = () => t.fake.venue.algo.open('BTCUSDT');
    const trader = e.start(['trade'], e.env({ STRATEGIES: LONG, STOP_LOSS: '0.02' }));
    // Where there is a dead-man's switch, the cycle after the stop disarms it (it would cancel the stop).
    const disarmed = () => t.fake.venue.countdowns.deadline('BTCUSDT') === null;
    await waitUntil(
      () => held() > 0 && stops().length === 1 && disarmed(),
      30_000,
      'a long with a stop on the exchange',
    );
    expect(stops()[0]).toMatchObject({
      side: 'SELL',
      closePosition: true,
      reduceOnly: true,
      workingType: 'MARK_PRICE',
    });

    trader.child.kill('SIGKILL');
    await trader.exited;
    // Past any countdown a live trader arms (three cycles, at least 10 s): the stop still rests.
    t.advance(11_000);
    expect(stops()).toHaveLength(1);
    // It closes the position when the mark falls through it.
    const trigger = stops()[0]!.triggerPrice;
    t.fake.venue.setPrice('BTCUSDT', trigger * 0.99);
    t.advance(1_000);
    expect(held()).toBe(0);
    expect(stops()).toEqual([]);
  }, 90_000);
});
