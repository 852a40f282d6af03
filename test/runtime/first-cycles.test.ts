// Issue 19's first finding, on the trading process as `npm start` runs it (every setting at its
// default, one-second cycles): the first order came at cycle 62, because strategies started with
// no usable history and the default entry sat on the no-trade band. Now the default takes its
// first position within the first ten cycles, and no cycle logs an exit for a symbol nobody holds.
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SYMBOLS } from '../../src/domain/instruments.js';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

/** The test harness's permissive settings put back to the defaults `npm start` runs with. */
const NPM_START = {
  STRATEGIES: '',
  SYMBOLS: DEFAULT_SYMBOLS,
  ORDER_STYLE: '',
  RISK_FRACTION: '',
  RISK_MAX_SYMBOL_EXPOSURE: '',
  RISK_MAX_TOTAL_EXPOSURE: '',
  RISK_MAX_LEVERAGE: '',
  MARGIN_INITIAL_RATE: '',
  MARGIN_MAINTENANCE_RATE: '',
  CYCLE_SECONDS: '1',
};

let trading: TestTrading | null = null;
afterEach(async () => {
  await trading?.close();
  trading = null;
});

describe('the default configuration, from its first cycle (issue 19)', () => {
  it('submits an order within the first ten cycles', async () => {
    trading = await openTestTrading('sqlite', NPM_START);
    // Cycle 1 runs at start; nine more seconds make ten.
    for (let i = 0; i < 9; i++) await trading.advance(1_000);
    const cycles = trading.events('cycle_start').map((l) => l.cycle as number);
    expect(cycles).toHaveLength(10);
    const submitted = trading.events('order_submitted');
    expect(submitted.length).toBeGreaterThan(0);
    // Signal lines are only signals an agent holds an opinion on: no flat signal for a symbol with nothing held.
    const exits = trading.events('signal_generated').filter((l) => l.direction === 0);
    expect(exits).toEqual([]);
  });

  it('fills a long declared lookback before cycle 1: momentum slow=100 signals at once (it emitted nothing in 1,500 cycles before)', async () => {
    const params = { momentum_ma_crossover: { fast: 20, slow: 100, timeframe: '1m', minSpread: 0 } };
    trading = await openTestTrading('sqlite', { ...NPM_START, STRATEGY_PARAMS: JSON.stringify(params) });
    const first = trading.events('signal_generated').filter((l) => l.agent === 'momentum_ma_crossover');
    expect(first.map((l) => l.symbol).sort()).toEqual(DEFAULT_SYMBOLS.split(',').sort());
  });
});
