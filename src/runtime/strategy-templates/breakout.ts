/**
 * The breakout template of `tcs strategy new`: long when the last close leaves the Donchian channel
 * of the bars before it upwards, short downwards, otherwise no opinion. The channel is declared
 * through trackIndicators, and the written test shows each answer on closes a reader can follow.
 */
import { ENTRY, factoryName, header, testPrelude } from './header.js';

export function breakoutSource(name: string, entry: string): string {
  const factory = factoryName(name);
  return `${header(
    name,
    'breakout',
    ` * It goes long when the last close is above the highest high of the \`channel\` bars before it,
 * short below their lowest low (a Donchian channel), and otherwise holds its target (null = no
 * opinion: the position is kept).`,
    entry,
    { channel: 30 },
  )}
import type { Instrument, Signal, StrategyAgent, StrategyFactory, StrategySnapshot } from '${ENTRY}';
import { requireNumber, resolveParams, ta, trackIndicators } from '${ENTRY}';

export interface Params {
  /** Bars the breakout channel spans (whole number ≥ 2). */
  channel: number;
  /** Candles to read: the feed's own (1m) or a coarser timeframe (5m, 15m, 1h, 4h, 1d …). */
  timeframe: string;
  /** Confidence of a breakout: the share of the risk budget (RISK_FRACTION × NAV) it asks for, in (0, 1]. */
  confidence: number;
}

const DEFAULTS: Params = { channel: 20, timeframe: '15m', confidence: 0.5 };

const ${factory}: StrategyFactory<Params> = (given = {}) => {
  // Merged over the defaults; a name not in DEFAULTS throws, naming the nearest known one.
  const p = resolveParams('${name}', DEFAULTS, given);
  // Validate what configuration gave: a bad value fails at start, naming the parameter.
  requireNumber('${name}', 'channel', p.channel, (n) => Number.isInteger(n) && n >= 2, 'a whole number ≥ 2');
  requireNumber('${name}', 'confidence', p.confidence, (n) => n > 0 && n <= 1, 'in (0, 1]');
  if (typeof p.timeframe !== 'string' || p.timeframe === '')
    throw new Error(\`${name}: parameter "timeframe" must be a timeframe such as "15m", got \${JSON.stringify(p.timeframe)}\`);
  // One tracker per agent: its streams are per symbol, fed each closed bar once.
  const indicators = trackIndicators({ channel: ta.donchian(p.channel) });
  const agent: StrategyAgent = {
    name: '${name}',
    // The history the tracker needs (the channel, and one bar more for \`prev\`): the trading
    // process fills it before the first cycle and never calls analyse with less.
    lookback: indicators.lookback,
    timeframe: p.timeframe,
    // The names STRATEGY_PARAMS may give: a misspelt one fails at start instead of running the default.
    parameters: Object.keys(DEFAULTS),
    analyse(s: StrategySnapshot, instrument: Instrument): Signal | null {
      // now: the values after the bar that just closed; prev: after the bar before it. Null while warming up.
      const r = indicators.update(s);
      if (r === null || r.prev === null) return null;
      // s.higher: the declared timeframe's completed candles (null when it is the feed's own);
      // s.candles: the feed's candles. Both are typed arrays, oldest first, the last bar just closed.
      const bars = s.higher ?? s.candles;
      const last = bars.close[bars.length - 1]!;
      // The channel of the bars before the last one: the last bar is what breaks out of it.
      const { upper, lower } = r.prev.channel;
      // Also at hand: s.position (this agent's own position in the symbol, signed base units),
      // s.nav (the account's NAV, USDT), s.fundingRate (per interval; null for spot),
      // s.bid / s.ask / s.bids / s.asks (the book), s.last, s.volume, instrument.kind ('perp' | 'spot').
      const direction = last > upper ? 1 : last < lower ? -1 : 0;
      if (direction === 0) return null; // inside the channel: hold whatever is held
      if (direction < 0 && instrument.kind === 'spot' && s.position <= 0) return null; // spot cannot go short
      return {
        agent: '${name}', // must be this agent's name, and symbol the snapshot's: else INVALID_SIGNAL
        symbol: s.symbol,
        direction, // 1 long, -1 short, 0 flat (close what this agent holds)
        confidence: p.confidence,
        rationale: \`close \${last} \${direction > 0 ? 'above' : 'below'} the \${p.channel}-bar channel [\${lower}, \${upper}]\`,
      };
    },
  };
  return agent;
};

export default ${factory};
`;
}

export function breakoutTest(name: string): string {
  return `${testPrelude(name, 'a breakout above the channel goes long, below it short, inside it says nothing.')}
describe('${name}', () => {
  const agent = create({ channel: 3, timeframe: '1m' });

  it('declares the history its channel needs', () => {
    // A 3-bar channel, and one bar more: the channel of the bars before the last one.
    expect(agent).toMatchObject({ name: '${name}', lookback: 4, timeframe: '1m' });
  });

  it('goes long above the channel, short below it, and says nothing inside it', () => {
    // The channel of 100, 101, 100 (highs and lows one away): [99, 102].
    expect(agent.analyse(snapshot([100, 101, 100, 105]), PERP)).toMatchObject({ direction: 1, symbol: 'BTCUSDT' });
    expect(agent.analyse(snapshot([100, 101, 100, 95]), PERP)).toMatchObject({ direction: -1 });
    expect(agent.analyse(snapshot([100, 101, 100, 100.5]), PERP)).toBeNull();
  });

  it('never opens a short on spot', () => {
    expect(agent.analyse(snapshot([100, 101, 100, 95]), SPOT)).toBeNull();
  });

  it('says nothing while the channel is warming up', () => {
    expect(agent.analyse(snapshot(line(3, 100, 10)), PERP)).toBeNull();
  });

  it('refuses a bad parameter', () => {
    expect(() => create({ channel: 1 })).toThrow(/channel/);
  });
});
`;
}
