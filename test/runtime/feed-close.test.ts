/**
 * The trading system closes its market feed (a live feed's retries stop with it) when it stops,
 * and when its start fails after the feed was opened.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSyntheticFeed } from '../../src/adapters/market-data/index.js';
import type { MarketFeed } from '../../src/ports/market-feed.js';
import { generateKey } from '../../src/domain/keys.js';
import { readTradingConfig } from '../../src/runtime/trading/trading-config.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { openTestTrading, PERMISSIVE_ENV } from '../support/trading.js';

let store: TestStore | undefined;
afterEach(async () => {
  await store?.cleanup();
  store = undefined;
});

function closingFeed(): MarketFeed & { closed: number } {
  const config = readTradingConfig({
    RISK_HMAC_SECRET: generateKey(),
    STORE_URL: 'sqlite::memory:',
    ...PERMISSIVE_ENV,
  });
  const inner = createSyntheticFeed({ instruments: config.instruments, seed: 1 });
  const feed = {
    instruments: inner.instruments,
    next: (now: number) => inner.next(now),
    closed: 0,
    async close() {
      feed.closed++;
    },
  };
  return feed;
}

describe('trading system and its market feed', () => {
  it('closes the feed once when it stops', async () => {
    store = await openTestStore('sqlite');
    const feed = closingFeed();
    const t = await openTestTrading('sqlite', {}, store, { feed });
    expect(feed.closed).toBe(0);
    await t.system.stop('test over');
    expect(feed.closed).toBe(1);
  });

  it('closes the feed when the start fails after it was opened', async () => {
    store = await openTestStore('sqlite');
    const feed = closingFeed();
    await expect(
      openTestTrading('sqlite', { STRATEGIES: '/nonexistent/strategy.ts' }, store, { feed }),
    ).rejects.toThrow();
    expect(feed.closed).toBe(1);
  });
});
