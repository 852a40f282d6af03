/**
 * The strategy of the backtrader comparison (issue 34, item 8), written as a user writes one,
 * against the public entry: long/flat SMA(10/30) crossover on the closes, a fixed quantity per
 * symbol (the Signal's `target: { qty }`, so sizing does not depend on NAV or confidence). Long while
 * SMA(10) > SMA(30), flat otherwise, stated every bar: repeating "long" while long changes nothing,
 * and "flat" while flat is NOTHING_TO_EXIT. bench/backtrader/sma_cross.py is the same rule in
 * backtrader. QTY is the size, the same in both.
 */
import { sma } from 'trading-control-service/strategy';
import type { Signal, StrategyAgent, StrategySnapshot } from 'trading-control-service/strategy';

const QTY = 1;
const FAST = 10;
const SLOW = 30;

const smaCross: StrategyAgent = {
  name: 'sma_cross',
  analyse(s: StrategySnapshot): Signal | null {
    const fast = sma(s.candles.close, FAST);
    const slow = sma(s.candles.close, SLOW);
    if (fast === null || slow === null) return null; // not enough bars yet
    const long = fast > slow;
    return { agent: 'sma_cross', symbol: s.symbol, direction: long ? 1 : 0, confidence: 1, target: { qty: QTY } };
  },
};

export default smaCross;
