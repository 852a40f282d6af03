/**
 * The paper account in the key-value store: one document under `paper:state`, written after every
 * mutation and read when the venue opens, so a restart loses nothing. Orders are stored as short
 * tuples because up to maxTerminalOrders of them are kept for idempotency and the document is
 * rewritten on every change. A document that does not decode is an error, never a silent reset:
 * resetting would quietly hand the account its starting cash back.
 */
import type { InstrumentKind } from '../../domain/market.js';
import type { OrderStatus, VenueOrder } from '../../domain/orders.js';
import type { PeakEntry } from '../../domain/risk/peak-window.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import { StoreFaultError } from '../../ports/store-errors.js';
import { createInitialState } from './state.js';
import type { FundingState, PaperState, PositionState } from './state.js';

export const PAPER_STATE_KEY = 'paper:state';
const VERSION = 1;

/** Time in force beyond the defaults: [GTC 'C' | GTT 'T', goodTill or null, postOnly 0 | 1]. */
type TifTuple = ['C' | 'T', number | null, 0 | 1];

/**
 * [clientOrderId, symbol, side, qty, type, limitPrice, reduceOnly, status, filledQty, avgFillPrice,
 * createdAt, updatedAt, rejectReason?, tif?]; rejectReason is null when only the tif follows. Both
 * tails are optional, so accounts written before time in force existed still read.
 */
type OrderTuple = [
  string,
  string,
  'B' | 'S',
  number,
  'M' | 'L',
  number | null,
  0 | 1,
  'o' | 'f' | 'c' | 'r',
  number,
  number | null,
  number,
  number,
  (string | null)?,
  TifTuple?,
];

export interface PaperStateDocument {
  v: number;
  startingCash: number;
  cash: number;
  realizedPnl: number;
  feesPaid: number;
  fundingPnl: number;
  /** The drawdown reference as of the last write (also what a release before the window reads). */
  peakNav: number;
  /** Optional, so accounts written before the insurance fund existed still read (as 0). */
  insuranceCover?: number;
  insuranceFund?: number;
  /**
   * The peak window's [bucket start, highest NAV] entries, oldest first. Added within version 1: a
   * document without it (written before the window) still reads, its peakNav then seeds the window at
   * the first mark; a reader before the window ignores it and keeps using peakNav.
   */
  peaks?: PeakEntry[];
  /** symbol → [kind, qty, entryPrice, realizedPnl] */
  positions: Record<string, [InstrumentKind, number, number, number]>;
  open: OrderTuple[];
  done: OrderTuple[];
  /** symbol → [due, rate, settledDue, paid]; `paid` added within version 1, absent (0) in older documents. */
  funding: Record<string, [number | null, number, number | null, number?]>;
  marks: Record<string, number>;
}

const STATUS_CODE: Record<OrderStatus, OrderTuple[7]> = { open: 'o', filled: 'f', cancelled: 'c', rejected: 'r' };
const STATUS_OF: Record<OrderTuple[7], OrderStatus> = { o: 'open', f: 'filled', c: 'cancelled', r: 'rejected' };

function encodeOrder(o: VenueOrder): OrderTuple {
  const tuple: OrderTuple = [
    o.clientOrderId,
    o.symbol,
    o.side === 'BUY' ? 'B' : 'S',
    o.qty,
    o.type === 'market' ? 'M' : 'L',
    o.limitPrice,
    o.reduceOnly ? 1 : 0,
    STATUS_CODE[o.status],
    o.filledQty,
    o.avgFillPrice,
    o.createdAt,
    o.updatedAt,
  ];
  const hasTif = o.timeInForce !== undefined || o.goodTill !== undefined || o.postOnly !== undefined;
  if (o.rejectReason !== undefined || hasTif) tuple.push(o.rejectReason ?? null);
  if (hasTif) tuple.push([o.timeInForce === 'GTT' ? 'T' : 'C', o.goodTill ?? null, o.postOnly === true ? 1 : 0]);
  return tuple;
}

function decodeOrder(t: unknown): VenueOrder {
  if (!Array.isArray(t) || t.length < 12) throw corrupt('an order is not a tuple');
  const [
    clientOrderId,
    symbol,
    side,
    qty,
    type,
    limitPrice,
    reduceOnly,
    status,
    filledQty,
    avgFillPrice,
    createdAt,
    updatedAt,
    rejectReason,
    tif,
  ] = t as unknown[];
  if (typeof clientOrderId !== 'string' || typeof symbol !== 'string') throw corrupt('an order has no id or symbol');
  if (!isCode(status)) throw corrupt(`order ${clientOrderId} has an unknown status`);
  const order: VenueOrder = {
    clientOrderId,
    symbol,
    side: side === 'B' ? 'BUY' : 'SELL',
    qty: num(qty),
    type: type === 'M' ? 'market' : 'limit',
    limitPrice: nullableNum(limitPrice),
    reduceOnly: reduceOnly === 1,
    status: STATUS_OF[status],
    filledQty: num(filledQty),
    avgFillPrice: nullableNum(avgFillPrice),
    createdAt: num(createdAt),
    updatedAt: num(updatedAt),
  };
  if (typeof rejectReason === 'string') order.rejectReason = rejectReason;
  if (tif !== undefined) decodeTif(order, tif);
  return order;
}

function decodeTif(order: VenueOrder, tif: unknown): void {
  if (!Array.isArray(tif) || (tif[0] !== 'C' && tif[0] !== 'T')) throw corrupt(`order ${order.clientOrderId} tif`);
  order.timeInForce = tif[0] === 'T' ? 'GTT' : 'GTC';
  const goodTill = nullableNum(tif[1]);
  if (goodTill !== null) order.goodTill = goodTill;
  order.postOnly = tif[2] === 1;
}

function decodePeak(entry: unknown): PeakEntry {
  if (!Array.isArray(entry) || entry.length !== 2) throw corrupt('a peak window entry is not [time, nav]');
  return [num(entry[0]), num(entry[1])];
}

function isCode(value: unknown): value is OrderTuple[7] {
  return value === 'o' || value === 'f' || value === 'c' || value === 'r';
}

/**
 * Terminal orders never change once retired (state.ts `retire`), yet every save wrote all of them
 * (up to maxTerminalOrders): their tuples are kept per order object and reused.
 */
const terminalTuples = new WeakMap<VenueOrder, OrderTuple>();

function encodeTerminal(order: VenueOrder): OrderTuple {
  let tuple = terminalTuples.get(order);
  if (tuple === undefined) {
    tuple = encodeOrder(order);
    terminalTuples.set(order, tuple);
  }
  return tuple;
}

export function encodeState(state: PaperState): PaperStateDocument {
  return {
    v: VERSION,
    startingCash: state.startingCash,
    cash: state.cash,
    realizedPnl: state.realizedPnl,
    feesPaid: state.feesPaid,
    fundingPnl: state.fundingPnl,
    peakNav: state.peakNav,
    insuranceCover: state.insuranceCover,
    insuranceFund: state.insuranceFund,
    peaks: state.peaks,
    positions: Object.fromEntries(
      [...state.positions].map(([s, p]) => [s, [p.kind, p.qty, p.entryPrice, p.realizedPnl]]),
    ),
    open: [...state.openOrders.values()].map(encodeOrder),
    done: Array.from(state.terminalOrders.values(), encodeTerminal),
    funding: Object.fromEntries([...state.funding].map(([s, f]) => [s, [f.due, f.rate, f.settledDue, f.paid]])),
    marks: Object.fromEntries(state.marks),
  };
}

export function decodeState(doc: unknown): PaperState {
  if (typeof doc !== 'object' || doc === null) throw corrupt('not an object');
  const d = doc as Partial<PaperStateDocument>;
  if (d.v !== VERSION) throw corrupt(`version ${String(d.v)} is not ${VERSION}`);
  const state = createInitialState(num(d.startingCash));
  state.cash = num(d.cash);
  state.realizedPnl = num(d.realizedPnl);
  state.feesPaid = num(d.feesPaid);
  state.fundingPnl = num(d.fundingPnl);
  state.peakNav = num(d.peakNav);
  state.insuranceCover = d.insuranceCover === undefined ? 0 : num(d.insuranceCover);
  state.insuranceFund = d.insuranceFund === undefined ? 0 : num(d.insuranceFund);
  state.peaks = array(d.peaks).map(decodePeak);
  for (const [symbol, entry] of Object.entries(record(d.positions))) {
    if (!Array.isArray(entry) || (entry[0] !== 'perp' && entry[0] !== 'spot')) throw corrupt(`position ${symbol}`);
    const position: PositionState = {
      kind: entry[0],
      qty: num(entry[1]),
      entryPrice: num(entry[2]),
      realizedPnl: num(entry[3]),
    };
    state.positions.set(symbol, position);
  }
  for (const tuple of array(d.open)) {
    const order = decodeOrder(tuple);
    state.openOrders.set(order.clientOrderId, order);
  }
  for (const tuple of array(d.done)) {
    const order = decodeOrder(tuple);
    state.terminalOrders.set(order.clientOrderId, order);
  }
  for (const [symbol, entry] of Object.entries(record(d.funding))) {
    if (!Array.isArray(entry)) throw corrupt(`funding ${symbol}`);
    const funding: FundingState = {
      due: nullableNum(entry[0]),
      rate: num(entry[1]),
      settledDue: nullableNum(entry[2]),
      paid: entry[3] === undefined ? 0 : num(entry[3]),
    };
    state.funding.set(symbol, funding);
  }
  for (const [symbol, mark] of Object.entries(record(d.marks))) state.marks.set(symbol, num(mark));
  return state;
}

/**
 * The stored account, or a new one with `startingCash` when the key is absent and `mayCreate` (the
 * venue's first load). A reload of an account that this venue has had — after a failed write — that
 * finds nothing is a store that lost its data: a fault, never an account handed its cash back.
 */
export async function loadState(kv: KeyValueStore, startingCash: number, mayCreate = true): Promise<PaperState> {
  const doc = await kv.get(PAPER_STATE_KEY);
  if (doc !== null) return decodeState(doc);
  if (!mayCreate) {
    throw new StoreFaultError(
      'empty',
      `${PAPER_STATE_KEY} vanished from the store: the paper account is not re-created`,
    );
  }
  return createInitialState(startingCash);
}

export async function saveState(kv: KeyValueStore, state: PaperState): Promise<void> {
  await kv.set(PAPER_STATE_KEY, encodeState(state));
}

function corrupt(detail: string): Error {
  return new Error(
    `${PAPER_STATE_KEY} in the key-value store is unreadable (${detail}); fix or delete it deliberately`,
  );
}

function num(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw corrupt(`expected a number, got ${String(value)}`);
  return value;
}

function nullableNum(value: unknown): number | null {
  return value === null ? null : num(value);
}

function record(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw corrupt('expected an object');
  return value as Record<string, unknown>;
}

function array(value: unknown): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw corrupt('expected an array');
  return value;
}
