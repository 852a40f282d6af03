/**
 * The trading process's paper venue fills off the feed's book, not the one a strategy was handed
 * (issue 34, item 1): through the real trading system on the synthetic market, a user strategy that
 * halves the best ask and doubles the best bid every cycle (and swallows the error that write now
 * raises) fills at exactly the prices of the same strategy without the write.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestTrading } from '../support/trading.js';

const dir = mkdtempSync(join(tmpdir(), 'tcs-book-isolation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'package.json'), '{"type":"module"}');

/** Long BTC on even minutes, flat on odd ones, after `body`: a fill nearly every cycle. */
function strategy(file: string, body: string): string {
  const path = join(dir, file);
  writeFileSync(
    path,
    `export default {
  name: 'flipper',
  analyse(s) {
    ${body}
    if (s.symbol !== 'BTCUSDT') return null;
    const direction = Math.floor(s.ts / 60000) % 2 === 0 ? 1 : 0;
    return { agent: 'flipper', symbol: s.symbol, direction, confidence: 1 };
  },
};
`,
  );
  return path;
}

async function fills(strategyPath: string): Promise<unknown[]> {
  const t = await openTestTrading('sqlite', { STRATEGIES: strategyPath, ORDER_STYLE: 'market', SYMBOLS: 'BTCUSDT' });
  try {
    for (let i = 0; i < 12; i++) await t.advance(60_000);
    return t.events('order_filled').map(({ symbol, side, qty, price, fee }) => ({ symbol, side, qty, price, fee }));
  } finally {
    await t.close();
  }
}

describe('tcs trade: the paper venue and the book a strategy was handed', () => {
  it('fills at the same prices whatever the strategy wrote into its book', async () => {
    const plain = await fills(strategy('plain.js', ''));
    const halving = await fills(
      strategy(
        'halving.js',
        'try { s.asks[0].price /= 2; s.bids[0].price *= 2; s.asks.sort((a, b) => b.price - a.price); } catch {}',
      ),
    );
    expect(plain.length).toBeGreaterThan(4);
    expect(halving).toEqual(plain);
  }, 60_000);
});
