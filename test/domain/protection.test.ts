/**
 * Protective exits (issue 20, item 4): the trigger rules of STOP_LOSS, TAKE_PROFIT and TRAILING_STOP
 * for longs and shorts against a bar's high and low, the trailing best price, per-strategy rules,
 * the tracked state across cycles and the cooldown after a stop.
 */
import { describe, expect, it } from 'vitest';
import { barsFromRows } from '../../src/domain/bars.js';
import type { MarketSnapshot, MarketView } from '../../src/domain/market.js';
import type { Position } from '../../src/domain/portfolio.js';
import {
  EMPTY_PROTECTION_STATE,
  coolingDown,
  exitTrigger,
  parseProtectionRule,
  protect,
  protectionEnabled,
  ruleFor,
  startCooldowns,
} from '../../src/domain/protection.js';
import type { ProtectionRule, ProtectionSettings } from '../../src/domain/protection.js';

const OFF: ProtectionRule = { stopLoss: null, takeProfit: null, trailingStop: null, cooldownAfterStop: 0 };
const rule = (r: Partial<ProtectionRule>): ProtectionRule => ({ ...OFF, ...r });

describe('exitTrigger: a long entered at 100', () => {
  const long = { side: 1 as const, entry: 100 };
  it('stop-loss 3 %: the bar low at 97 triggers at 97, a low at 97.01 does not', () => {
    expect(exitTrigger(long, 100, { high: 101, low: 97 }, rule({ stopLoss: 0.03 }))).toEqual({
      reason: 'stop_loss',
      triggerPrice: 97,
    });
    expect(exitTrigger(long, 100, { high: 101, low: 97.01 }, rule({ stopLoss: 0.03 }))).toBeNull();
  });
  it('take-profit 5 %: the bar high at 105 triggers, 104.99 does not', () => {
    expect(exitTrigger(long, 100, { high: 105, low: 104 }, rule({ takeProfit: 0.05 }))).toEqual({
      reason: 'take_profit',
      triggerPrice: 105,
    });
    expect(exitTrigger(long, 100, { high: 104.99, low: 104 }, rule({ takeProfit: 0.05 }))).toBeNull();
  });
  it('trailing 2 % of entry: trails 2 below the best price so far', () => {
    const trail = rule({ trailingStop: 0.02 });
    expect(exitTrigger(long, 110, { high: 110, low: 108.5 }, trail)).toBeNull();
    expect(exitTrigger(long, 110, { high: 109, low: 108 }, trail)).toEqual({
      reason: 'trailing_stop',
      triggerPrice: 108,
    });
  });
  it('a bar that crosses both a stop and the take-profit counts as the stop (the order inside a bar is unknown)', () => {
    const both = rule({ stopLoss: 0.03, takeProfit: 0.03 });
    expect(exitTrigger(long, 100, { high: 104, low: 96 }, both)?.reason).toBe('stop_loss');
  });
  it('of two adverse triggers the one crossed first (the higher, for a long) is the reason', () => {
    const two = rule({ stopLoss: 0.05, trailingStop: 0.02 });
    // best 110: trailing at 108, stop at 95; a bar down to 94 crossed 108 first.
    expect(exitTrigger(long, 110, { high: 109, low: 94 }, two)).toEqual({ reason: 'trailing_stop', triggerPrice: 108 });
    // best 100: trailing at 98 above the stop at 95 still.
    expect(exitTrigger(long, 100, { high: 100, low: 94 }, two)?.reason).toBe('trailing_stop');
    const tied = rule({ stopLoss: 0.02, trailingStop: 0.02 });
    expect(exitTrigger(long, 100, { high: 100, low: 97 }, tied)?.reason).toBe('stop_loss');
  });
  it('nothing configured: never triggers', () => {
    expect(exitTrigger(long, 100, { high: 1000, low: 1 }, OFF)).toBeNull();
  });
});

describe('exitTrigger: a short entered at 100', () => {
  const short = { side: -1 as const, entry: 100 };
  it('stop-loss 3 %: the bar high at 103 triggers at 103', () => {
    expect(exitTrigger(short, 100, { high: 103, low: 99 }, rule({ stopLoss: 0.03 }))).toEqual({
      reason: 'stop_loss',
      triggerPrice: 103,
    });
    expect(exitTrigger(short, 100, { high: 102.99, low: 99 }, rule({ stopLoss: 0.03 }))).toBeNull();
  });
  it('take-profit 5 %: the bar low at 95 triggers', () => {
    expect(exitTrigger(short, 100, { high: 96, low: 95 }, rule({ takeProfit: 0.05 }))).toEqual({
      reason: 'take_profit',
      triggerPrice: 95,
    });
  });
  it('trailing 2 % of entry: trails 2 above the lowest price so far', () => {
    const trail = rule({ trailingStop: 0.02 });
    expect(exitTrigger(short, 90, { high: 91.9, low: 90 }, trail)).toBeNull();
    expect(exitTrigger(short, 90, { high: 92, low: 91 }, trail)).toEqual({ reason: 'trailing_stop', triggerPrice: 92 });
  });
});

const snap = (symbol: string, high: number, low: number, close: number): MarketSnapshot => ({
  symbol,
  ts: 0,
  last: close,
  bid: close,
  ask: close,
  bids: [],
  asks: [],
  bars: barsFromRows([{ time: 0, open: close, high, low, close, volume: 1 }]),
  volume: 1,
  fundingRate: 0,
  nextFundingTs: null,
});
const pos = (symbol: string, qty: number, entryPrice: number): Position => ({
  symbol,
  kind: 'perp',
  qty,
  entryPrice,
  markPrice: entryPrice,
  unrealizedPnl: 0,
  realizedPnl: 0,
});
const view = (...s: MarketSnapshot[]): MarketView => new Map(s.map((x) => [x.symbol, x]));
const settings = (global: Partial<ProtectionRule>, byStrategy: Record<string, Partial<ProtectionRule>> = {}) =>
  ({ global: rule(global), byStrategy }) as ProtectionSettings;

describe('protect: tracking positions cycle by cycle', () => {
  it('tracks the best price from the bars before the one judged, and survives as plain data (JSON)', () => {
    const s = settings({ trailingStop: 0.02 });
    const owners = new Map([['BTCUSDT', 'momentum']]);
    let r = protect(EMPTY_PROTECTION_STATE, [pos('BTCUSDT', 1, 100)], view(snap('BTCUSDT', 105, 99, 104)), owners, s);
    expect(r.exits).toEqual([]);
    expect(r.state.positions.BTCUSDT).toEqual({ side: 1, best: 105, agent: 'momentum' });
    // A restart: the state comes back from its JSON document; the owner is no longer known.
    const restored = JSON.parse(JSON.stringify(r.state)) as typeof r.state;
    r = protect(restored, [pos('BTCUSDT', 1, 100)], view(snap('BTCUSDT', 104, 102.9, 103)), new Map(), s);
    expect(r.exits).toEqual([
      {
        symbol: 'BTCUSDT',
        agent: 'momentum',
        reason: 'trailing_stop',
        qty: 1,
        entryPrice: 100,
        bestPrice: 105,
        triggerPrice: 103,
      },
    ]);
  });
  it('a flat symbol is forgotten; a flip starts from the new entry', () => {
    const s = settings({ stopLoss: 0.5 });
    const r1 = protect(EMPTY_PROTECTION_STATE, [pos('ETHUSDT', 2, 10)], view(snap('ETHUSDT', 12, 9, 11)), new Map(), s);
    expect(r1.state.positions.ETHUSDT?.best).toBe(12);
    const flipped = protect(r1.state, [pos('ETHUSDT', -2, 11)], view(snap('ETHUSDT', 11.5, 10.5, 11)), new Map(), s);
    expect(flipped.state.positions.ETHUSDT).toEqual({ side: -1, best: 10.5, agent: null });
    const flat = protect(flipped.state, [], view(snap('ETHUSDT', 11, 10, 10)), new Map(), s);
    expect(flat.state.positions).toEqual({});
  });
  it('a strategy rule overrides the global one; null in it turns a global exit off', () => {
    const s = settings({ stopLoss: 0.03 }, { funding: { stopLoss: null, takeProfit: 0.01 } });
    expect(ruleFor(s, 'funding')).toEqual(rule({ takeProfit: 0.01 }));
    expect(ruleFor(s, 'momentum')).toEqual(rule({ stopLoss: 0.03 }));
    const owners = new Map([
      ['BTCUSDT', 'funding'],
      ['ETHUSDT', 'momentum'],
    ]);
    const r = protect(
      EMPTY_PROTECTION_STATE,
      [pos('BTCUSDT', 1, 100), pos('ETHUSDT', 1, 100)],
      view(snap('BTCUSDT', 100.5, 90, 95), snap('ETHUSDT', 100.5, 90, 95)),
      owners,
      s,
    );
    expect(r.exits.map((e) => [e.symbol, e.reason])).toEqual([['ETHUSDT', 'stop_loss']]);
  });
  it('without candles the last price is both high and low', () => {
    const s = settings({ stopLoss: 0.03 });
    const bare = { ...snap('BTCUSDT', 0, 0, 96), bars: barsFromRows([]) };
    const r = protect(EMPTY_PROTECTION_STATE, [pos('BTCUSDT', 1, 100)], view(bare), new Map(), s);
    expect(r.exits.map((e) => e.triggerPrice)).toEqual([97]);
  });
  it('protection off: tracks nothing', () => {
    const s = settings({});
    expect(protectionEnabled(s)).toBe(false);
    const r = protect(EMPTY_PROTECTION_STATE, [pos('BTCUSDT', 1, 100)], view(snap('BTCUSDT', 1, 1, 1)), new Map(), s);
    expect(r).toEqual({ state: EMPTY_PROTECTION_STATE, exits: [] });
  });
});

describe('cooldown after a stop', () => {
  const exit = { symbol: 'BTCUSDT', agent: 'momentum', qty: 1, entryPrice: 100, bestPrice: 100, triggerPrice: 97 };
  it('a stop at cycle 10 with COOLDOWN_AFTER_STOP=3 blocks that agent and symbol through cycle 13', () => {
    const s = settings({ stopLoss: 0.03, cooldownAfterStop: 3 });
    const state = startCooldowns(EMPTY_PROTECTION_STATE, [{ ...exit, reason: 'stop_loss' as const }], s, 10);
    expect(coolingDown(state, 'momentum', 'BTCUSDT', 11)).toBe(13);
    expect(coolingDown(state, 'momentum', 'BTCUSDT', 13)).toBe(13);
    expect(coolingDown(state, 'momentum', 'BTCUSDT', 14)).toBeNull();
    expect(coolingDown(state, 'funding', 'BTCUSDT', 11)).toBeNull();
    expect(coolingDown(state, 'momentum', 'ETHUSDT', 11)).toBeNull();
  });
  it('a take-profit starts no cooldown; an unknown owner blocks every agent', () => {
    const s = settings({ cooldownAfterStop: 3 });
    expect(startCooldowns(EMPTY_PROTECTION_STATE, [{ ...exit, reason: 'take_profit' as const }], s, 10)).toEqual(
      EMPTY_PROTECTION_STATE,
    );
    const anyone = startCooldowns(EMPTY_PROTECTION_STATE, [{ ...exit, agent: null, reason: 'trailing_stop' }], s, 10);
    expect(coolingDown(anyone, 'funding', 'BTCUSDT', 12)).toBe(13);
  });
});

describe('parseProtectionRule', () => {
  it('reads fractions in (0, 1) and a whole number of cycles; refuses anything else with the field named', () => {
    expect(parseProtectionRule({ stop_loss: 0.03, take_profit: null, cooldown_after_stop: 2 }, 'X')).toEqual({
      stopLoss: 0.03,
      takeProfit: null,
      cooldownAfterStop: 2,
    });
    expect(() => parseProtectionRule({ stop_loss: 3 }, 'X')).toThrow(/X\.stop_loss must be a fraction in \(0, 1\)/);
    expect(() => parseProtectionRule({ stoploss: 0.1 }, 'X')).toThrow(/X: unknown field "stoploss"/);
    expect(() => parseProtectionRule({ cooldown_after_stop: 1.5 }, 'X')).toThrow(/whole number/);
  });
});
