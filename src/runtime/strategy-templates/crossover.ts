/**
 * The crossover template of `tcs strategy new`: a fast and a slow EMA declared through
 * trackIndicators; long while the fast one is above, short while below (perpetuals). It holds a
 * target rather than firing once at the cross, so a restarted process or a dropped cycle loses
 * nothing. The written test drives it with rising, falling and flat closes.
 */
import { ENTRY, factoryName, header, testPrelude } from './header.js';

export function crossoverSource(name: string, entry: string): string {
  const factory = factoryName(name);
  return `${header(
    name,
    'crossover',
    ` * It follows the trend two moving averages show: long while the EMA of the last \`fast\` closes is
 * above the EMA of the last \`slow\`, short while below (perpetuals only: spot goes no further than
 * flat), with the same target every bar until they cross again. Equal averages: no opinion (null,
 * the position is kept).`,
    entry,
    { fast: 8, slow: 34 },
  )}
import type { Instrument, Signal, StrategyAgent, StrategyFactory, StrategySnapshot } from '${ENTRY}';
import { requireNumber, resolveParams, ta, trackIndicators } from '${ENTRY}';

export interface Params {
  /** Closes the fast EMA follows (whole number ≥ 1, below slow). */
  fast: number;
  /** Closes the slow EMA follows (whole number above fast). */
  slow: number;
  /** Candles to read: the feed's own (1m) or a coarser timeframe (5m, 15m, 1h, 4h, 1d …). */
  timeframe: string;
  /** Confidence of a side: the share of the risk budget (RISK_FRACTION × NAV) it asks for, in (0, 1]. */
  confidence: number;
}

const DEFAULTS: Params = { fast: 10, slow: 30, timeframe: '15m', confidence: 0.5 };

const ${factory}: StrategyFactory<Params> = (given = {}) => {
  // Merged over the defaults; a name not in DEFAULTS throws, naming the nearest known one.
  const p = resolveParams('${name}', DEFAULTS, given);
  // Validate what configuration gave: a bad value fails at start, naming the parameter.
  requireNumber('${name}', 'fast', p.fast, (n) => Number.isInteger(n) && n >= 1, 'a whole number ≥ 1');
  requireNumber('${name}', 'slow', p.slow, (n) => Number.isInteger(n) && n > p.fast, 'a whole number above fast');
  requireNumber('${name}', 'confidence', p.confidence, (n) => n > 0 && n <= 1, 'in (0, 1]');
  if (typeof p.timeframe !== 'string' || p.timeframe === '')
    throw new Error(\`${name}: parameter "timeframe" must be a timeframe such as "15m", got \${JSON.stringify(p.timeframe)}\`);
  // One tracker per agent: its streams are per symbol, fed each closed bar once.
  const indicators = trackIndicators({ fast: ta.ema(p.fast), slow: ta.ema(p.slow) });
  const agent: StrategyAgent = {
    name: '${name}',
    // The history the tracker needs so the EMAs' first close weighs less than a millionth: the
    // trading process fills it before the first cycle and never calls analyse with less.
    lookback: indicators.lookback,
    timeframe: p.timeframe,
    // The names STRATEGY_PARAMS may give: a misspelt one fails at start instead of running the default.
    parameters: Object.keys(DEFAULTS),
    analyse(s: StrategySnapshot, instrument: Instrument): Signal | null {
      // now: the values after the bar that just closed; prev: after the bar before (a cross is a
      // change of side between them). Null while warming up.
      const r = indicators.update(s);
      if (r === null) return null;
      const { fast, slow } = r.now;
      const direction = Math.sign(fast - slow);
      if (direction === 0) return null; // touching: no side
      // Also at hand: s.position (this agent's own position in the symbol, signed base units),
      // s.nav (the account's NAV, USDT), s.fundingRate (per interval; null for spot),
      // s.bid / s.ask / s.bids / s.asks (the book), s.last, s.volume, s.candles / s.higher (the bars).
      // Spot cannot go short: below, the target is flat (0 closes what this agent holds).
      const target = direction < 0 && instrument.kind === 'spot' ? 0 : direction;
      if (target === 0 && s.position <= 0) return null; // nothing to close
      const crossed = r.prev !== null && Math.sign(r.prev.fast - r.prev.slow) !== direction;
      return {
        agent: '${name}', // must be this agent's name, and symbol the snapshot's: else INVALID_SIGNAL
        symbol: s.symbol,
        direction: target, // 1 long, -1 short, 0 flat (close what this agent holds)
        confidence: p.confidence,
        rationale: \`EMA(\${p.fast}) \${fast.toPrecision(8)} \${direction > 0 ? 'above' : 'below'} EMA(\${p.slow}) \${slow.toPrecision(8)}\${crossed ? ': crossed this bar' : ''}\`,
      };
    },
  };
  return agent;
};

export default ${factory};
`;
}

export function crossoverTest(name: string): string {
  return `${testPrelude(name, 'long while the fast EMA is above the slow one, short below (perpetuals), nothing when equal.')}
describe('${name}', () => {
  const agent = create({ fast: 3, slow: 6, timeframe: '1m' });
  // Enough bars for the tracker's declared history: what a run hands over at least.
  const n = agent.lookback!;

  it('declares the history its EMAs need', () => {
    expect(agent).toMatchObject({ name: '${name}', timeframe: '1m' });
    expect(n).toBeGreaterThan(6);
  });

  it('goes long in a rise and short in a fall', () => {
    expect(agent.analyse(snapshot(line(n, 100, 1)), PERP)).toMatchObject({ direction: 1, symbol: 'BTCUSDT' });
    expect(agent.analyse(snapshot(line(n, 200, -1)), PERP)).toMatchObject({ direction: -1 });
  });

  it('on spot, a fall closes a long and opens no short', () => {
    expect(agent.analyse(snapshot(line(n, 200, -1), 0.5), SPOT)).toMatchObject({ direction: 0 });
    expect(agent.analyse(snapshot(line(n, 200, -1)), SPOT)).toBeNull();
  });

  it('says nothing when the averages are equal', () => {
    expect(agent.analyse(snapshot(line(n, 100, 0)), PERP)).toBeNull();
  });

  it('refuses a bad parameter', () => {
    expect(() => create({ fast: 30, slow: 10 })).toThrow(/slow/);
  });
});
`;
}
