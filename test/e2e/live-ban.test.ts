/**
 * Issue 32, finding 3: an IP ban (HTTP 418) was answered 1,050 times in 3 minutes while /health
 * said ok. `tcs start` (the API and a live trading process) against the fake exchange: a 418 halts
 * trading (`exchange_banned`, naming the ban's end), /health and /metrics show it, no request reaches
 * the exchange until the ban's end, and the halt ends by itself once the exchange answers again.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openTradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { openE2e } from './harness.js';
import type { E2e } from './harness.js';

const FLIP = fileURLToPath(new URL('../fixtures/strategies/btc-flip-each-cycle.js', import.meta.url));
/** Long enough to read /health and /metrics during it, short enough for a test. */
const BAN_SECONDS = 6;

interface HealthBody {
  status: string;
  reason?: string;
  components: { trading_process: { status: string; reason?: string } };
}

let t: TradingFake | undefined;
let e: E2e | undefined;

afterAll(async () => {
  await e?.close();
  await t?.close();
});

describe('an exchange ban in a running system', () => {
  it('halts exchange_banned, shown in /health and /metrics, sends no account request until the ban ends, then resumes', async () => {
    // The fake's clock is the wall clock: the child signs requests with it.
    t = await openTradingFake({ deposit: 100_000, start: Date.now() });
    e = await openE2e('sqlite', {
      ...liveEnvFor(t.fake.url),
      SYMBOLS: 'BTCUSDT',
      STRATEGIES: FLIP,
      RISK_FRACTION: '0.02',
      ORDER_STYLE: 'market',
      EXCHANGE_TIMEOUT_MS: '1000',
    });
    await e.proc.waitFor(/"event":"cycle_end"/, 30_000);

    t.fake.faults.banFor(BAN_SECONDS);
    const bannedAt = Date.now();
    await e.proc.waitFor(/"event":"trading_halted","reason":"exchange_banned"/, 15_000);
    const sawHalt = performance.now();
    expect(t.fake.faults.bansAnswered()).toBeGreaterThanOrEqual(1);

    await vi.waitFor(
      async () => {
        const body = (await (await fetch(`${e!.base}/health`)).json()) as HealthBody;
        expect(body.status).toBe('degraded');
        expect(body.components.trading_process).toMatchObject({ status: 'halted' });
        expect(body.components.trading_process.reason).toMatch(
          /halted \(exchange_banned\): the exchange banned this IP until \S+ \(418, Retry-After \d+ s\)/,
        );
      },
      { timeout: 5_000, interval: 100 },
    );
    await vi.waitFor(
      async () => {
        const text = await (await fetch(`${e!.base}/metrics`)).text();
        expect(text).toMatch(/tcs_trading_halt\{reason="exchange_banned",process="trading"\} 1/);
      },
      { timeout: 5_000, interval: 100 },
    );
    // Read while the ban still ran: the reads above proved it during the ban, not after.
    expect(Date.now() - bannedAt).toBeLessThan(BAN_SECONDS * 1000);

    await e.proc.waitFor(/"event":"trading_halt_ended"/, 20_000);
    // Every request that reached the exchange before the ban's end was answered 418; each one, the
    // account's signed ones and the live feed's public market data alike (Binance bans the IP),
    // arrived before the halt was printed (those in flight then may be answered a moment later): the
    // process sent nothing once it knew of the ban.
    expect(t.fake.faults.lastBanArrivedAt() ?? 0).toBeLessThanOrEqual(sawHalt);
    await vi.waitFor(
      async () => {
        const text = await (await fetch(`${e!.base}/metrics`)).text();
        expect(text).toMatch(/tcs_trading_halt\{reason="exchange_banned",process="trading"\} 0/);
      },
      { timeout: 10_000, interval: 100 },
    );
  }, 90_000);
});
