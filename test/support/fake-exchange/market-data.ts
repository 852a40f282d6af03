/**
 * The fake exchange's market: deterministic functions of (seed, symbol, time), so the same candle,
 * book or funding rate comes back on every call and a test can compute what the exchange served
 * without asking it. Prices follow a smooth wave plus hashed noise: no state, any time answerable.
 */
import { hash } from 'node:crypto';

export const MINUTE = 60_000;
export const FUNDING_INTERVAL = 8 * 3_600_000;
export const BOOK_LEVELS_SERVED = 20;

export interface FakeInstrument {
  /** Binance id, e.g. BTCUSDT. */
  id: string;
  base: string;
  basePrice: number;
  tickSize: string;
  stepSize: string;
  minNotional: string;
  pricePrecision: number;
  quantityPrecision: number;
}

export const FAKE_INSTRUMENTS: readonly FakeInstrument[] = [
  {
    id: 'BTCUSDT',
    base: 'BTC',
    basePrice: 60_000,
    tickSize: '0.10',
    stepSize: '0.001',
    minNotional: '100',
    pricePrecision: 2,
    quantityPrecision: 3,
  },
  {
    id: 'ETHUSDT',
    base: 'ETH',
    basePrice: 3_000,
    tickSize: '0.01',
    stepSize: '0.001',
    minNotional: '20',
    pricePrecision: 2,
    quantityPrecision: 3,
  },
  {
    id: 'SOLUSDT',
    base: 'SOL',
    basePrice: 150,
    tickSize: '0.0100',
    stepSize: '1',
    minNotional: '5',
    pricePrecision: 4,
    quantityPrecision: 0,
  },
];

export interface Candle {
  openTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** A uniform number in [0, 1) from the seed and the parts: the same parts, the same number. */
export function unit(seed: number, ...parts: (string | number)[]): number {
  // The first 4 bytes of the SHA-256, big-endian: the one-shot hash in hex is ~3x cheaper than a
  // Hash object's buffer, and a long download's hourly candles hash hundreds of thousands of minutes.
  return parseInt(hash('sha256', `${seed}|${parts.join('|')}`, 'hex').slice(0, 8), 16) / 2 ** 32;
}

function roundTo(value: number, step: string): number {
  const s = Number(step);
  const decimals = step.includes('.') ? step.split('.')[1]!.length : 0;
  return Number((Math.round(value / s) * s).toFixed(decimals));
}

export function instrumentById(id: string): FakeInstrument | undefined {
  return FAKE_INSTRUMENTS.find((i) => i.id === id);
}

/** The price at a minute boundary `t` (epoch ms): a slow wave and a little hashed noise, on the tick. */
export function priceAt(seed: number, inst: FakeInstrument, t: number): number {
  const minute = Math.floor(t / MINUTE);
  const wave = 0.03 * Math.sin(minute / 240) + 0.01 * Math.sin(minute / 17);
  const noise = (unit(seed, inst.id, 'p', minute) - 0.5) * 0.002;
  return roundTo(inst.basePrice * (1 + wave + noise), inst.tickSize);
}

/** The 1m candle opening at `openTime` (a minute boundary). */
export function candleAt(seed: number, inst: FakeInstrument, openTime: number): Candle {
  return candleBetween(seed, inst, openTime, priceAt(seed, inst, openTime), priceAt(seed, inst, openTime + MINUTE));
}

/** candleAt with its open and close prices already known (the prices at its two minute boundaries). */
function candleBetween(seed: number, inst: FakeInstrument, openTime: number, open: number, close: number): Candle {
  const wick = Number(inst.tickSize) * Math.ceil(unit(seed, inst.id, 'w', openTime) * 20);
  const high = roundTo(Math.max(open, close) + wick, inst.tickSize);
  const low = roundTo(Math.min(open, close) - wick, inst.tickSize);
  const volume = roundTo((20 + 200 * unit(seed, inst.id, 'v', openTime)) * (60_000 / inst.basePrice), inst.stepSize);
  return { openTime, open, high, low, close, volume };
}

/** A candle of any timeframe (a whole number of minutes), aggregated from the 1m candles. */
export function aggregateCandle(seed: number, inst: FakeInstrument, openTime: number, minutes: number): Candle {
  // Each minute's close is the next one's open: every boundary's price computed once.
  const prices = Array.from({ length: minutes + 1 }, (_, i) => priceAt(seed, inst, openTime + i * MINUTE));
  const ones = Array.from({ length: minutes }, (_, i) =>
    candleBetween(seed, inst, openTime + i * MINUTE, prices[i]!, prices[i + 1]!),
  );
  return {
    openTime,
    open: ones[0]!.open,
    close: ones[ones.length - 1]!.close,
    high: Math.max(...ones.map((c) => c.high)),
    low: Math.min(...ones.map((c) => c.low)),
    volume: roundTo(
      ones.reduce((sum, c) => sum + c.volume, 0),
      inst.stepSize,
    ),
  };
}

/**
 * The book at the minute containing `t`: bids below and asks above that minute's close (or `mid`,
 * a price a test moved the market to), 20 levels, the sizes the same either way.
 */
export function bookAt(
  seed: number,
  inst: FakeInstrument,
  t: number,
  mid: number = candleAt(seed, inst, Math.floor(t / MINUTE) * MINUTE).close,
): { bids: [number, number][]; asks: [number, number][] } {
  const minute = Math.floor(t / MINUTE) * MINUTE;
  const tick = Number(inst.tickSize);
  const level = (side: string, i: number): number =>
    roundTo((1 + 4 * unit(seed, inst.id, side, minute, i)) * (30_000 / inst.basePrice), inst.stepSize) ||
    Number(inst.stepSize);
  const bids: [number, number][] = [];
  const asks: [number, number][] = [];
  for (let i = 0; i < BOOK_LEVELS_SERVED; i++) {
    bids.push([roundTo(mid - tick * (i + 1), inst.tickSize), level('b', i)]);
    asks.push([roundTo(mid + tick * (i + 1), inst.tickSize), level('a', i)]);
  }
  return { bids, asks };
}

/** The funding rate settled at `fundingTime` (a multiple of 8 h): between -0.0002 and +0.0004. */
export function fundingAt(seed: number, inst: FakeInstrument, fundingTime: number): number {
  return Number((unit(seed, inst.id, 'f', fundingTime) * 0.0006 - 0.0002).toFixed(8));
}
