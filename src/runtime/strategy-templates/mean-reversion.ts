/**
 * The mean-reversion template of `tcs strategy new`: Wilder's RSI, declared through
 * trackIndicators; long when oversold, short when overbought (perpetuals), out when it is back at
 * the exit level. The written test drives the RSI to 0, to 100 and to the middle with plain lines.
 */
import { ENTRY, factoryName, header, testPrelude } from './header.js';

export function meanReversionSource(name: string, entry: string): string {
  const factory = factoryName(name);
  return `${header(
    name,
    'mean-reversion',
    ` * It fades stretched moves: when Wilder's RSI of the last \`period\` changes falls below \`oversold\`
 * it goes long, above \`overbought\` short (perpetuals only: spot never opens a short), and while it
 * holds a position it closes it (direction 0) once the RSI is back at \`exitLevel\`. Otherwise it
 * holds its target (null = no opinion: the position is kept).`,
    entry,
    { period: 14, oversold: 25, overbought: 75 },
  )}
import type { Instrument, Signal, StrategyAgent, StrategyFactory, StrategySnapshot } from '${ENTRY}';
import { requireNumber, resolveParams, ta, trackIndicators } from '${ENTRY}';

export interface Params {
  /** Changes the RSI smooths (whole number ≥ 2). */
  period: number;
  /** RSI below this opens a long (0 < oversold < exitLevel). */
  oversold: number;
  /** RSI above this opens a short on perpetuals (exitLevel < overbought < 100). */
  overbought: number;
  /** RSI at which a held position is closed (between oversold and overbought). */
  exitLevel: number;
  /** Candles to read: the feed's own (1m) or a coarser timeframe (5m, 15m, 1h, 4h, 1d …). */
  timeframe: string;
  /** Confidence of an entry: the share of the risk budget (RISK_FRACTION × NAV) it asks for, in (0, 1]. */
  confidence: number;
}

const DEFAULTS: Params = { period: 14, oversold: 30, overbought: 70, exitLevel: 50, timeframe: '15m', confidence: 0.5 };

const ${factory}: StrategyFactory<Params> = (given = {}) => {
  // Merged over the defaults; a name not in DEFAULTS throws, naming the nearest known one.
  const p = resolveParams('${name}', DEFAULTS, given);
  // Validate what configuration gave: a bad value fails at start, naming the parameter.
  requireNumber('${name}', 'period', p.period, (n) => Number.isInteger(n) && n >= 2, 'a whole number ≥ 2');
  requireNumber('${name}', 'exitLevel', p.exitLevel, (n) => n > 0 && n < 100, 'in (0, 100)');
  requireNumber('${name}', 'oversold', p.oversold, (n) => n > 0 && n < p.exitLevel, 'in (0, exitLevel)');
  requireNumber('${name}', 'overbought', p.overbought, (n) => n > p.exitLevel && n < 100, 'in (exitLevel, 100)');
  requireNumber('${name}', 'confidence', p.confidence, (n) => n > 0 && n <= 1, 'in (0, 1]');
  if (typeof p.timeframe !== 'string' || p.timeframe === '')
    throw new Error(\`${name}: parameter "timeframe" must be a timeframe such as "15m", got \${JSON.stringify(p.timeframe)}\`);
  // One tracker per agent: its streams are per symbol, fed each closed bar once.
  const indicators = trackIndicators({ rsi: ta.rsi(p.period) });
  const agent: StrategyAgent = {
    name: '${name}',
    // The history the tracker needs so the RSI's first average weighs less than a millionth: the
    // trading process fills it before the first cycle and never calls analyse with less.
    lookback: indicators.lookback,
    timeframe: p.timeframe,
    // The names STRATEGY_PARAMS may give: a misspelt one fails at start instead of running the default.
    parameters: Object.keys(DEFAULTS),
    analyse(s: StrategySnapshot, instrument: Instrument): Signal | null {
      // now: the values after the bar that just closed (null while warming up).
      const r = indicators.update(s);
      if (r === null) return null;
      const rsi = r.now.rsi;
      // Also at hand: s.nav (the account's NAV, USDT), s.fundingRate (per interval; null for spot),
      // s.bid / s.ask / s.bids / s.asks (the book), s.last, s.volume, s.candles / s.higher (the bars).
      const signal = (direction: number, confidence: number, why: string): Signal => ({
        agent: '${name}', // must be this agent's name, and symbol the snapshot's: else INVALID_SIGNAL
        symbol: s.symbol,
        direction, // 1 long, -1 short, 0 flat (close what this agent holds)
        confidence,
        rationale: \`RSI(\${p.period}) \${rsi.toFixed(1)} \${why}\`,
      });
      // s.position: this agent's own position in the symbol (signed base units).
      if (s.position > 0 && rsi >= p.exitLevel) return signal(0, 1, \`back to \${p.exitLevel}: exit the long\`);
      if (s.position < 0 && rsi <= p.exitLevel) return signal(0, 1, \`back to \${p.exitLevel}: exit the short\`);
      if (rsi < p.oversold) return signal(1, p.confidence, \`below \${p.oversold}: oversold, go long\`);
      if (rsi > p.overbought && instrument.kind === 'perp')
        return signal(-1, p.confidence, \`above \${p.overbought}: overbought, go short\`);
      return null; // in between: hold whatever is held
    },
  };
  return agent;
};

export default ${factory};
`;
}

export function meanReversionTest(name: string): string {
  return `${testPrelude(name, 'oversold goes long, overbought short (perpetuals), back at the exit level it closes.')}
describe('${name}', () => {
  const agent = create({ period: 3, timeframe: '1m' });
  // Enough bars for the tracker's declared history: what a run hands over at least.
  const n = agent.lookback!;

  it('declares the history its RSI needs', () => {
    expect(agent).toMatchObject({ name: '${name}', timeframe: '1m' });
    expect(n).toBeGreaterThan(3);
  });

  it('goes long after a steady fall (RSI 0) and short after a steady rise (RSI 100)', () => {
    expect(agent.analyse(snapshot(line(n, 200, -1)), PERP)).toMatchObject({ direction: 1, symbol: 'BTCUSDT' });
    expect(agent.analyse(snapshot(line(n, 100, 1)), PERP)).toMatchObject({ direction: -1 });
    expect(agent.analyse(snapshot(line(n, 100, 1)), SPOT)).toBeNull(); // spot never opens a short
  });

  it('closes a long once the RSI is back at the exit level', () => {
    expect(agent.analyse(snapshot(line(n, 100, 1), 0.5), PERP)).toMatchObject({ direction: 0, confidence: 1 });
  });

  it('says nothing in between', () => {
    const zigzag = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 100 : 101));
    expect(agent.analyse(snapshot(zigzag), PERP)).toBeNull();
  });

  it('refuses a bad parameter', () => {
    expect(() => create({ oversold: 60 })).toThrow(/oversold/);
    expect(() => create({ period: 1 })).toThrow(/period/);
  });
});
`;
}
