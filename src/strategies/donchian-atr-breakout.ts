/**
 * `donchian_atr_breakout`: the turtle-style trend follower. When a `timeframe` candle closes above
 * the highest high of the `channel` candles before it, go long (+1); below their lowest low, short
 * (−1) on perpetuals (spot never opens a short). Inside the channel it says nothing. A held position
 * is protected by a volatility stop that trails it: for a long, the highest high since the position
 * was first seen minus `stopAtr` × ATR(`atrPeriod`); a close below it exits (direction 0, confidence
 * 1). A short mirrors it from the lowest low. The stop only ever follows the extreme, so it loosens
 * only as far as the ATR widens.
 *
 * The channel is read one bar back (`prev`): the current bar is part of its own channel, so its close
 * can never be above it. The trail is kept per symbol from the bars the agent sees (the snapshot says
 * the position, not its entry), restarted whenever the position's side changes.
 *
 * Written, like a user's strategy, against the public entry only (public.ts).
 */
import type { Instrument, Signal, StrategyAgent, StrategyFactory, StrategySnapshot } from './public.js';
import { requireNumber, resolveParams, ta, trackIndicators } from './public.js';

export const DONCHIAN_ATR_BREAKOUT = 'donchian_atr_breakout';

export interface DonchianAtrBreakoutParams {
  /** Candles whose high/low make the channel a close must break (whole number ≥ 2). */
  channel: number;
  /** Candles Wilder's ATR averages (whole number ≥ 1). */
  atrPeriod: number;
  /** Trailing stop distance from the extreme since entry, in ATRs (> 0). */
  stopAtr: number;
  /** Candles to read: the feed's own or a coarser timeframe (5m, 15m, 1h, …). */
  timeframe: string;
  /** Confidence of an entry, in (0, 1]: the share of RISK_FRACTION × NAV it asks for. */
  confidence: number;
}

/**
 * The turtles' 20-bar entry channel and a 3-ATR chandelier stop, on 5-minute candles: the ATR's
 * warm-up (203 bars, 17 h) then fits a live feed's start-up history.
 */
export const DEFAULT_DONCHIAN_ATR_BREAKOUT_PARAMS: Readonly<DonchianAtrBreakoutParams> = Object.freeze({
  channel: 20,
  atrPeriod: 14,
  stopAtr: 3,
  timeframe: '5m',
  confidence: 0.5,
});

/** The trail of a held position: its side, the extreme since it was first seen, the bar that set it. */
interface Trail {
  side: number;
  extreme: number;
  time: number;
}

export const createDonchianAtrBreakout: StrategyFactory<DonchianAtrBreakoutParams> = (params) => {
  const p = validate(resolveParams(DONCHIAN_ATR_BREAKOUT, DEFAULT_DONCHIAN_ATR_BREAKOUT_PARAMS, params));
  const indicators = trackIndicators({ channel: ta.donchian(p.channel), atr: ta.atr(p.atrPeriod) });
  const trails = new Map<string, Trail>();

  function analyse(s: StrategySnapshot, instrument: Instrument): Signal | null {
    const r = indicators.update(s);
    if (r === null || r.prev === null) return null;
    const bars = s.higher ?? s.candles;
    const last = bars.length - 1;
    const close = bars.close[last]!;
    const signal = (direction: number, confidence: number, rationale: string): Signal => ({
      agent: DONCHIAN_ATR_BREAKOUT,
      symbol: s.symbol,
      direction,
      confidence,
      rationale,
    });
    const side = Math.sign(s.position);
    if (side === 0) {
      trails.delete(s.symbol);
      const { upper, lower } = r.prev.channel;
      if (close > upper)
        return signal(1, p.confidence, `close ${close} above the ${p.channel}-bar high ${upper}: breakout, go long`);
      if (close < lower && instrument.kind === 'perp')
        return signal(-1, p.confidence, `close ${close} below the ${p.channel}-bar low ${lower}: breakdown, go short`);
      return null;
    }
    // Holding: follow the extreme once per bar, exit through the stop.
    const extremeNow = side > 0 ? bars.high[last]! : bars.low[last]!;
    let trail = trails.get(s.symbol);
    if (trail === undefined || trail.side !== side) {
      trail = { side, extreme: extremeNow, time: r.time };
      trails.set(s.symbol, trail);
    } else if (trail.time !== r.time) {
      trail.extreme = side > 0 ? Math.max(trail.extreme, extremeNow) : Math.min(trail.extreme, extremeNow);
      trail.time = r.time;
    }
    const atr = r.now.atr;
    const stop = trail.extreme - side * p.stopAtr * atr;
    const how = `${p.stopAtr} × ATR ${atr.toFixed(4)}`;
    if (side > 0 && close < stop)
      return signal(
        0,
        1,
        `close ${close} below the ATR stop ${stop.toFixed(4)} (highest high ${trail.extreme} − ${how}): exit the long`,
      );
    if (side < 0 && close > stop)
      return signal(
        0,
        1,
        `close ${close} above the ATR stop ${stop.toFixed(4)} (lowest low ${trail.extreme} + ${how}): exit the short`,
      );
    return null;
  }

  return {
    name: DONCHIAN_ATR_BREAKOUT,
    parameters: Object.keys(DEFAULT_DONCHIAN_ATR_BREAKOUT_PARAMS),
    lookback: indicators.lookback,
    timeframe: p.timeframe,
    analyse,
  } satisfies StrategyAgent;
};

function validate(p: DonchianAtrBreakoutParams): DonchianAtrBreakoutParams {
  const name = DONCHIAN_ATR_BREAKOUT;
  requireNumber(name, 'channel', p.channel, (n) => Number.isInteger(n) && n >= 2, 'a whole number ≥ 2');
  requireNumber(name, 'atrPeriod', p.atrPeriod, (n) => Number.isInteger(n) && n >= 1, 'a whole number ≥ 1');
  requireNumber(name, 'stopAtr', p.stopAtr, (n) => n > 0, '> 0');
  requireNumber(name, 'confidence', p.confidence, (n) => n > 0 && n <= 1, 'in (0, 1]');
  if (typeof p.timeframe !== 'string' || p.timeframe === '')
    throw new Error(
      `${name}: parameter "timeframe" must be a timeframe such as "5m", got ${JSON.stringify(p.timeframe)}`,
    );
  return p;
}
