/**
 * The fake account's books, one-way mode (one signed position per symbol, Binance's positionSide
 * BOTH), cross margin in USDT: every fill moves the position (average entry on the way up,
 * realized PnL on the way down, a flip closes then opens at the fill price) and charges its fee,
 * and the wallet is the deposit plus realized PnL less fees — so balances, positions and the trade
 * list always agree, as they do on the exchange.
 */
import { round } from './decimals.js';

export interface Position {
  symbol: string;
  /** Signed: positive long, negative short. */
  qty: number;
  entryPrice: number;
  updateTime: number;
}

export interface FeeRates {
  maker: number;
  taker: number;
}

export interface FillOutcome {
  realizedPnl: number;
  commission: number;
}

/** Binance's default USDⓈ-M fees at the lowest tier: 0.02 % maker, 0.05 % taker. */
export const DEFAULT_FEES: FeeRates = { maker: 0.0002, taker: 0.0005 };
/** The leverage the fake's account trades at on every symbol (Binance's default is 20x). */
export const LEVERAGE = 20;
const MONEY = 8;

export class Ledger {
  wallet: number;
  walletUpdateTime: number;
  private readonly held = new Map<string, Position>();

  constructor(
    deposit: number,
    private readonly fees: FeeRates,
    now: number,
  ) {
    this.wallet = deposit;
    this.walletUpdateTime = now;
  }

  position(symbol: string): Position {
    return this.held.get(symbol) ?? { symbol, qty: 0, entryPrice: 0, updateTime: 0 };
  }

  /** Every position not flat. */
  open(): Position[] {
    return [...this.held.values()].filter((p) => p.qty !== 0);
  }

  /** Books one fill of `qty` (> 0) at `price`; `qtyDecimals` keeps the position on the lot. */
  fill(
    symbol: string,
    side: 'BUY' | 'SELL',
    qty: number,
    price: number,
    maker: boolean,
    time: number,
    qtyDecimals: number,
  ): FillOutcome {
    const signed = side === 'BUY' ? qty : -qty;
    const before = this.position(symbol);
    let realizedPnl = 0;
    let after: Position;
    if (before.qty === 0 || Math.sign(before.qty) === Math.sign(signed)) {
      const total = Math.abs(before.qty) + qty;
      const entry = (Math.abs(before.qty) * before.entryPrice + qty * price) / total;
      after = { symbol, qty: round(before.qty + signed, qtyDecimals), entryPrice: entry, updateTime: time };
    } else {
      const closed = Math.min(qty, Math.abs(before.qty));
      realizedPnl = round((price - before.entryPrice) * closed * Math.sign(before.qty), MONEY);
      const qtyAfter = round(before.qty + signed, qtyDecimals);
      const entry = qtyAfter === 0 ? 0 : Math.sign(qtyAfter) === Math.sign(before.qty) ? before.entryPrice : price;
      after = { symbol, qty: qtyAfter, entryPrice: entry, updateTime: time };
    }
    const commission = round(qty * price * (maker ? this.fees.maker : this.fees.taker), MONEY);
    this.held.set(symbol, after);
    this.wallet = round(this.wallet + realizedPnl - commission, MONEY);
    this.walletUpdateTime = time;
    return { realizedPnl, commission };
  }

  /** A position changed outside any order (a test's hand: liquidation, ADL, another system). */
  set(symbol: string, qty: number, entryPrice: number, time: number): void {
    this.held.set(symbol, { symbol, qty, entryPrice: qty === 0 ? 0 : entryPrice, updateTime: time });
  }
}
