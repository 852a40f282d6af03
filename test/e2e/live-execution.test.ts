/**
 * EXECUTION_MODE=live as a real `tcs trade` process against the fake exchange on loopback
 * (EXCHANGE_URL and LIVE_EXCHANGE_URL, keys set, the testnet path): before the first cycle an order
 * left on the exchange by someone else is cancelled (`orders_cancelled`, reason `foreign_orders`);
 * the system's orders trade on the exchange's own book; a position changed behind its back is
 * `position_drift` and refuses openings (POSITION_DRIFT); the exchange's dead-man's switch is armed
 * at start and every cycle; and once the process is SIGKILLed, the exchange cancels the symbol's
 * resting orders by itself when the countdown runs out (the fake's clock is moved on, not waited for).
 * An exchange that stops answering for EXCHANGE_LOSS_HALT_MS halts trading (`trading_halted`, reason
 * `exchange_unreachable`): no cycle, no order; its answer again ends the halt. A 418 ban halts at once
 * (`exchange_banned`) and nothing is sent until the ban's end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { openTradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { FAKE_CREDENTIALS } from '../support/fake-exchange/server.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';

const FLIP = fileURLToPath(new URL('../fixtures/strategies/btc-flip-each-cycle.js', import.meta.url));

type Line = Record<string, unknown> & { event: string };
const lines = (proc: RunningProcess): Line[] =>
  proc
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Line);

let t: TradingFake | undefined;
let proc: RunningProcess | undefined;
let dir = '';

afterAll(async () => {
  if (proc && proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline)
      throw new Error(
        `${what}: not within ${timeoutMs} ms\n${proc?.stdout().slice(-3000)}\n${proc?.stderr().slice(-3000)}`,
      );
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('tcs trade with EXECUTION_MODE=live (fake exchange)', () => {
  it('cancels a foreign order at start, trades on the exchange, and after a SIGKILL the exchange cancels resting orders by the countdown', async () => {
    // The fake's clock is the wall clock (the child signs requests with it), until the test moves it on.
    t = await openTradingFake({ deposit: 100_000, start: Date.now() });
    await t.exchange.loadMarkets();
    await t.exchange.createOrder('BTC/USDT:USDT', 'limit', 'buy', 0.2, 1_000, { clientOrderId: 'by-hand-1' });
    dir = mkdtempSync(join(tmpdir(), 'tcs-live-exec-'));
    proc = startTcs(
      ['trade'],
      {
        STORE_URL: `sqlite:${join(dir, 'tcs.db')}`,
        RISK_HMAC_SECRET: generateKey(),
        CONTROL_PLANE_TIMEOUT: '0',
        ...liveEnvFor(t.fake.url),
        CYCLE_SECONDS: '0.3',
        SYMBOLS: 'BTCUSDT',
        STRATEGIES: FLIP,
        RISK_FRACTION: '0.02',
        ORDER_STYLE: 'market',
        EXCHANGE_TIMEOUT_MS: '1000',
        EXCHANGE_LOSS_HALT_MS: '2000',
        LOG_LEVEL: 'info',
      },
      dir,
    );

    await proc.waitFor(/"event":"orders_cancelled".*"reason":"foreign_orders"/, 20_000);
    const foreign = lines(proc).find((l) => l.event === 'orders_cancelled')!;
    expect(foreign).toMatchObject({ client_order_ids: ['by-hand-1'], count: 1 });
    expect(t.fake.venue.find('BTCUSDT', { clientOrderId: 'by-hand-1' })?.status).toBe('CANCELED');

    // The system's own orders reach the exchange and fill there.
    await waitUntil(() => lines(proc!).some((l) => l.event === 'order_filled'), 20_000, 'a fill');
    const filled = lines(proc).filter((l) => l.event === 'order_filled');
    const trades = t.fake.venue.trades('BTCUSDT');
    expect(trades.length).toBeGreaterThanOrEqual(filled.length);
    expect(trades.map((x) => x.price)).toContain(filled[0]!.price);

    // The exchange stops answering: a halt, as for a lost store. Nothing is sent while it lasts but
    // the probe and the halt's cancels; its answer again ends the halt (cancelling once more) and the
    // cycles come back.
    t.fake.hang();
    await proc.waitFor(/"event":"trading_halted","reason":"exchange_unreachable"/, 15_000);
    expect(proc.stderr()).toMatch(/the exchange has not answered for \d+ ms \(EXCHANGE_LOSS_HALT_MS 2000\)/);
    const haltedAt = lines(proc).length;
    const sentWhileHalted = t.fake.calls.length;
    await new Promise((r) => setTimeout(r, 1_500)); // five cycle lengths
    expect(
      lines(proc)
        .slice(haltedAt)
        .filter((l) => l.event === 'cycle_start'),
    ).toEqual([]);
    const orders = t.fake.calls
      .slice(sentWhileHalted)
      .filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'));
    expect(orders).toEqual([]);
    t.fake.resume();
    await waitUntil(
      () =>
        lines(proc!)
          .slice(haltedAt)
          .some((l) => l.event === 'trading_halt_ended'),
      15_000,
      'the halt ended',
    );
    const ended = lines(proc).findIndex((l, i) => i >= haltedAt && l.event === 'trading_halt_ended');
    await waitUntil(
      () =>
        lines(proc!)
          .slice(ended)
          .some((l) => l.event === 'cycle_start'),
      15_000,
      'cycles again after the halt',
    );

    // The exchange bans the IP (418 for 3 s): a halt at once naming the ban's end, and not one request
    // reaches the exchange until the ban is over (each would be answered 418 and prolong it); then
    // the probe's answer ends the halt and the cycles come back.
    const beforeBan = lines(proc).length;
    t.fake.faults.banFor(3);
    await proc.waitFor(/"event":"trading_halted","reason":"exchange_banned"/, 10_000);
    const sawHalt = performance.now();
    expect(proc.stderr()).toMatch(/the exchange banned this IP until \S+ \(418, Retry-After 3 s\)/);
    expect(t.fake.faults.bansAnswered()).toBeGreaterThanOrEqual(1);
    await waitUntil(
      () =>
        lines(proc!)
          .slice(beforeBan)
          .some((l) => l.event === 'trading_halt_ended'),
      15_000,
      'the ban halt ended',
    );
    // No request was sent while the ban lasted: every one answered 418, signed or public market data,
    // arrived before the halt was printed (those already in flight then may be answered a moment
    // later; under load there can be several, which is why their number is not the measure).
    expect(t.fake.faults.lastBanArrivedAt() ?? 0).toBeLessThanOrEqual(sawHalt);
    const banEnded = lines(proc).findIndex((l, i) => i >= beforeBan && l.event === 'trading_halt_ended');
    await waitUntil(
      () =>
        lines(proc!)
          .slice(banEnded)
          .some((l) => l.event === 'cycle_start'),
      15_000,
      'cycles again after the ban',
    );

    // A position changed behind the system's back: drift is told, and openings are refused until it ends.
    const held = t.fake.venue.account().positions.find((p) => p.symbol === 'BTCUSDT')?.qty ?? 0;
    t.fake.venue.setPosition('BTCUSDT', held + 0.5);
    await proc.waitFor(/"event":"position_drift","drift":\[\{"symbol":"BTCUSDT"/, 10_000);
    await proc.waitFor(/"event":"order_rejected".*POSITION_DRIFT/, 10_000);
    expect(proc.stderr()).toMatch(/position drift: the exchange holds what the system did not trade/);

    // Armed at start and re-armed by the cycles: when half of its 10 s has run out, so a second arming
    // comes about 5 s after the first (the bound leaves room for a loaded machine).
    const arms = () => t!.fake.calls.filter((c) => c.url.startsWith('/fapi/v1/countdownCancelAll')).length;
    await waitUntil(() => arms() >= 2, 20_000, 'countdown re-armed');

    // The fee and funding history is read when cycles are done (weight 30, never before a cycle's orders).
    await waitUntil(
      () => t!.fake.calls.some((c) => c.method === 'GET' && c.url.startsWith('/fapi/v1/income')),
      10_000,
      'the income history read',
    );

    // SIGKILL. The countdown it armed last is still running on the exchange: an order resting on the
    // symbol (one placed now, by hand, as an order the dead process left would be) is cancelled by the
    // exchange itself once it runs out, with nobody left to ask.
    proc.child.kill('SIGKILL');
    await proc.exited;
    const armsAtDeath = arms();
    await t.exchange.createOrder('BTC/USDT:USDT', 'limit', 'buy', 0.2, 1_000, { clientOrderId: 'resting-at-death' });
    // Re-armed when half of it had run out, so at death between half and all of it remains.
    expect(t.fake.venue.open().map((o) => o.clientOrderId)).toEqual(['resting-at-death']);
    t.advance(11_000); // past the countdown (three cycles, at least 10 s) since the last arming
    expect(t.fake.venue.open()).toEqual([]);
    expect(t.fake.venue.find('BTCUSDT', { clientOrderId: 'resting-at-death' })?.status).toBe('CANCELED');
    expect(arms()).toBe(armsAtDeath);
    expect(proc.stdout() + proc.stderr()).not.toContain(FAKE_CREDENTIALS.secret);
    // Whatever timed out while the exchange was silent is logged without its signature. Which signed
    // request times out first depends on timing (the stream spares the polls), so the blanking itself
    // is proven in test/adapters/exchanges/signature-blanking.test.ts; here: no signature leaks.
    expect(proc.stdout() + proc.stderr()).not.toMatch(/signature=[0-9a-f]/);
  }, 60_000);
});
