/**
 * The fake account's settings that Binance keeps per account and per symbol, which a live start
 * must check before its first order (issue 32, item 5): the position mode (one-way or hedge, GET/POST
 * /fapi/v1/positionSide/dual), multi-assets mode (/fapi/v1/multiAssetsMargin), and each symbol's
 * leverage and margin type (GET /fapi/v1/symbolConfig, POST /fapi/v1/leverage, /fapi/v1/marginType).
 * A test sets them by hand, as an operator would on the exchange's web page. Defaults are Binance's
 * for a new account: one-way, single-asset, 20x, cross. The fake's margin arithmetic stays at
 * ledger.ts's LEVERAGE whatever is set here: these tests are about what is read and set.
 */
import { BinanceError } from './binance-errors.js';
import { LEVERAGE } from './ledger.js';

export type MarginType = 'CROSSED' | 'ISOLATED';

export interface SymbolSettings {
  leverage: number;
  marginType: MarginType;
}

const bad = (code: number, msg: string) => new BinanceError(400, code, msg);

export class AccountSettings {
  /** Hedge mode (`dualSidePosition: true`): every order must name LONG or SHORT. */
  dualSidePosition = false;
  /** Multi-assets mode: every symbol is cross margin on a shared, multi-asset wallet. */
  multiAssetsMargin = false;
  private readonly bySymbol = new Map<string, SymbolSettings>();

  of(symbol: string): SymbolSettings {
    return this.bySymbol.get(symbol) ?? { leverage: LEVERAGE, marginType: 'CROSSED' };
  }

  /** A change made by hand (the exchange's web page): no checks. */
  set(symbol: string, settings: Partial<SymbolSettings>): void {
    this.bySymbol.set(symbol, { ...this.of(symbol), ...settings });
  }

  /** POST /fapi/v1/leverage: an integer 1..125. */
  changeLeverage(symbol: string, leverage: number): SymbolSettings {
    if (!Number.isInteger(leverage) || leverage < 1 || leverage > 125) throw bad(-4028, 'Leverage is not valid');
    this.set(symbol, { leverage });
    return this.of(symbol);
  }

  /** POST /fapi/v1/marginType: refused when unchanged (-4046), or while the symbol holds a position (-4048). */
  changeMarginType(symbol: string, marginType: string, holding: boolean): void {
    if (marginType !== 'CROSSED' && marginType !== 'ISOLATED') throw bad(-1116, 'Invalid marginType.');
    if (this.of(symbol).marginType === marginType) throw bad(-4046, 'No need to change margin type.');
    if (holding) throw bad(-4048, 'Margin type cannot be changed if there exists position.');
    if (this.multiAssetsMargin && marginType === 'ISOLATED')
      throw bad(-4168, 'Unable to adjust to isolated-margin mode under the Multi-Assets mode.');
    this.set(symbol, { marginType });
  }
}
