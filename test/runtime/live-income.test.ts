/**
 * The trading process's fees-and-funding tally (src/runtime/trading/live-income.ts) with its store:
 * what it counted is saved (`live:income`) and a restart on the same account goes on from it, so a
 * fee is never counted twice nor forgotten; a fee paid in BNB is left out with a warning; the sums of another account (the testnet's, on a store
 * that moved to mainnet) are not taken over: counting starts again, with a warning.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES } from '../../src/adapters/live-venue/capabilities.js';
import { symbolMap } from '../../src/adapters/live-venue/ccxt-mapping.js';
import { LIVE_INCOME_KEY } from '../../src/domain/runtime-documents.js';
import { readDocument } from '../../src/ports/documents.js';
import { openIncomeTally } from '../../src/runtime/trading/live-income.js';
import { openTradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { feesBooked, marketFill } from '../support/fake-exchange/by-hand.js';
import { createMemoryKv } from '../support/memory-kv.js';

const SYMBOLS = symbolMap([['BTCUSDT', 'BTC/USDT:USDT']]);
let t: TradingFake;

beforeAll(async () => {
  t = await openTradingFake({ deposit: 100_000 });
  await t.exchange.loadMarkets();
});
afterAll(async () => {
  await t.close();
});

const fill = (qty: number) => marketFill(t.fake.venue, 'BTCUSDT', 'BUY', qty);
const fees = () => feesBooked(t.fake.venue, 'BTCUSDT');

describe('live fees and funding kept in the store', () => {
  it('goes on from the saved sums after a restart, and starts again for another account', async () => {
    const kv = createMemoryKv();
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    const deps = { clock: { now: () => t.fake.venue.now() }, log, kv };
    const open = (account: string) =>
      openIncomeTally(CAPABILITIES.binanceusdm.income!(t.exchange), t.exchange, SYMBOLS, account, deps);

    const first = await open('binanceusdm:testnet');
    fill(0.01);
    await first.refresh();
    expect(first.totals().feesPaid).toBeCloseTo(fees(), 8);
    expect((await readDocument(kv, LIVE_INCOME_KEY))?.income.feesPaid).toBe(first.totals().feesPaid);

    // A restart: the saved sums, then only what came after them.
    const restarted = await open('binanceusdm:testnet');
    expect(restarted.totals()).toEqual(first.totals());
    fill(0.02);
    await restarted.refresh();
    expect(restarted.totals().feesPaid).toBeCloseTo(fees(), 8);

    // A fee paid in BNB is not converted: the log says so, once.
    t.fake.venue.feeIn('BNB', 'BTCUSDT', 0.0001);
    t.fake.venue.feeIn('BNB', 'BTCUSDT', 0.0001);
    t.advance(10_000);
    await restarted.refresh();
    expect(restarted.totals().feesPaid).toBeCloseTo(fees(), 8);
    expect(warnings.filter((w) => w.includes('fees are paid in BNB on this account'))).toHaveLength(1);

    // The same store on another account: its sums are not this one's.
    t.advance(1_000);
    const other = await open('binanceusdm:mainnet');
    expect(other.totals()).toEqual({ fundingPnl: 0, feesPaid: 0 });
    expect(warnings.join('')).toContain("the stored fees and funding are another account's");
  });
});
