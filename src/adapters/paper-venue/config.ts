/**
 * Paper venue configuration and its documented defaults. Fees are fractions of fill notional, as
 * exchanges quote them (0.0005 = 0.05 % = 5 bps). A stored account always wins over
 * `startingCash`: the setting only seeds a brand-new account, so a restart never resets money.
 * Margin rates default to DEFAULT_MARGIN_TABLE (10 % initial, 5 % maintenance, src/domain/margin.ts).
 * A liquidation pays `liquidationFee` of the close's notional to the insurance fund (liquidation.ts).
 * `feesBySymbol` overrides the maker and taker fee of single symbols (a data manifest's fees).
 * `barFills` says how resting limits fill against a replayed bar (resting-depth.ts). `slippageBps`
 * moves taker fills against the taker beyond the book (execution.ts); `markPrice` is what positions
 * are marked at (marking.ts).
 */
import { assertMarginRates, DEFAULT_MARGIN_TABLE } from '../../domain/margin.js';
import type { MarginTable } from '../../domain/margin.js';
import { MARK_PRICES } from '../../domain/market.js';
import type { MarkPrice } from '../../domain/market.js';
import { DEFAULT_DRAWDOWN_WINDOW_MS } from '../../domain/risk/peak-window.js';

/** How market orders beyond the visible book are priced (see fill-pricing.ts). */
export interface ImpactModel {
  /**
   * Quantity beyond the visible depth fills at the last visible level moved against the taker by
   * `overflowPenalty × (1 + overflowQty / visibleQty)` of that price: a fixed toll for leaving the
   * book plus a charge that grows with how far the order outsizes it.
   */
  overflowPenalty: number;
}

/**
 * How resting limit orders fill against a replayed bar's range (snapshots with `execution`): a BUY
 * limit is traded *through* when the bar's low is below it, *touched* when the low equals it (a SELL:
 * the high above, or equal). Through fills; a touch is where the queue at that price may not have
 * been reached, so it fills only `touchShare` of what a through would.
 */
export interface BarFillRules {
  /** Share of the bar's base volume that the resting orders of one symbol and side may fill in all (FILL_VOLUME_SHARE). */
  volumeShare: number;
  /** Share of that allowance a touch fills (FILL_TOUCH_SHARE): 0, the default, none; 1, as much as a through. */
  touchShare: number;
}

/** One symbol's fee rates, each overriding the venue's own when given. */
export interface SymbolFees {
  makerFee?: number;
  takerFee?: number;
}

export interface PaperVenueConfig {
  /** Quote (USDT) cash of a new account. */
  startingCash: number;
  /** Fee rate for liquidity-taking fills (market orders, marketable limits). */
  takerFee: number;
  /** Fee rate for resting limit orders that fill later; negative means a rebate. */
  makerFee: number;
  /** Per-symbol fee rates that override takerFee/makerFee (from a data manifest). */
  feesBySymbol: Readonly<Record<string, SymbolFees>>;
  barFills: BarFillRules;
  /**
   * Liquidation (clearance) fee: a fraction of a liquidation close's notional, charged on top of the
   * taker fee and paid into the insurance fund, out of the equity the close leaves (LIQUIDATION_FEE).
   */
  liquidationFee: number;
  impact: ImpactModel;
  /** Terminal orders remembered for clientOrderId idempotency; the oldest are forgotten first. */
  maxTerminalOrders: number;
  /** Initial and maintenance margin of perpetuals, per symbol. */
  margin: MarginTable;
  /**
   * Time between funding payments. Used only to count the funding times missed while the venue saw
   * no market (a restart): each one passed is paid, not just the last.
   */
  fundingIntervalMs: number;
  /** RISK_DRAWDOWN_WINDOW: the peak NAV the drawdown is measured from is the highest over this long. */
  drawdownWindowMs: number;
  /**
   * SLIPPAGE_BPS: a taker fill (market order, marketable limit) pays this many basis points of its
   * walked price beyond it (a BUY higher, a SELL lower, a limit never past its limit). Liquidations
   * are priced by their own model (liquidation.ts) and do not slip.
   */
  slippageBps: number;
  /** MARK_PRICE: positions are marked at the book's mid (`mid`) or at the last price (`close`). */
  markPrice: MarkPrice;
}

export interface PaperVenueConfigInput extends Partial<Omit<PaperVenueConfig, 'impact' | 'barFills'>> {
  impact?: Partial<ImpactModel>;
  barFills?: Partial<BarFillRules>;
}

export const DEFAULT_PAPER_VENUE_CONFIG: Readonly<PaperVenueConfig> = Object.freeze({
  startingCash: 100_000,
  takerFee: 0.0005,
  makerFee: 0.0002,
  feesBySymbol: Object.freeze({}),
  // Zipline's VolumeShareSlippage default (volume_limit 0.025): an order is at most 2.5 % of a bar's
  // volume. Touches fill nothing: at a bar's extreme the queue ahead at that price may have taken it all.
  barFills: Object.freeze({ volumeShare: 0.025, touchShare: 0 }),
  // 0.5 %, within the clearance fees of Binance USDⓈ-M (0.5–1.25 % by bracket); issue 20.
  liquidationFee: 0.005,
  impact: Object.freeze({ overflowPenalty: 0.001 }),
  // Kept for idempotency by client order id (retries come within a command lease, seconds); the
  // whole account is rewritten on every operation, so this bounds its size and the cost per write.
  maxTerminalOrders: 500,
  margin: DEFAULT_MARGIN_TABLE,
  // Exchanges' usual perpetual funding cadence (00:00, 08:00, 16:00 UTC), as the synthetic feed uses.
  fundingIntervalMs: 8 * 3_600_000,
  // A day: a breach ends by itself once the account has been below its old high for that long.
  drawdownWindowMs: DEFAULT_DRAWDOWN_WINDOW_MS,
  // No slippage and the mid: what the venue did before either was a setting.
  slippageBps: 0,
  markPrice: 'mid',
});

/** Defaults filled in and every value checked; throws a RangeError naming the bad setting. */
export function resolvePaperVenueConfig(input: PaperVenueConfigInput = {}): PaperVenueConfig {
  const config: PaperVenueConfig = {
    startingCash: input.startingCash ?? DEFAULT_PAPER_VENUE_CONFIG.startingCash,
    takerFee: input.takerFee ?? DEFAULT_PAPER_VENUE_CONFIG.takerFee,
    makerFee: input.makerFee ?? DEFAULT_PAPER_VENUE_CONFIG.makerFee,
    feesBySymbol: input.feesBySymbol ?? DEFAULT_PAPER_VENUE_CONFIG.feesBySymbol,
    barFills: { ...DEFAULT_PAPER_VENUE_CONFIG.barFills, ...input.barFills },
    liquidationFee: input.liquidationFee ?? DEFAULT_PAPER_VENUE_CONFIG.liquidationFee,
    impact: { overflowPenalty: input.impact?.overflowPenalty ?? DEFAULT_PAPER_VENUE_CONFIG.impact.overflowPenalty },
    maxTerminalOrders: input.maxTerminalOrders ?? DEFAULT_PAPER_VENUE_CONFIG.maxTerminalOrders,
    margin: input.margin ?? DEFAULT_PAPER_VENUE_CONFIG.margin,
    fundingIntervalMs: input.fundingIntervalMs ?? DEFAULT_PAPER_VENUE_CONFIG.fundingIntervalMs,
    drawdownWindowMs: input.drawdownWindowMs ?? DEFAULT_PAPER_VENUE_CONFIG.drawdownWindowMs,
    slippageBps: input.slippageBps ?? DEFAULT_PAPER_VENUE_CONFIG.slippageBps,
    markPrice: input.markPrice ?? DEFAULT_PAPER_VENUE_CONFIG.markPrice,
  };
  if (!(config.startingCash > 0) || !Number.isFinite(config.startingCash))
    throw new RangeError('paper venue startingCash must be a positive number');
  for (const key of ['takerFee', 'makerFee'] as const) {
    assertFee(config[key], key);
    for (const [symbol, fees] of Object.entries(config.feesBySymbol))
      if (fees[key] !== undefined) assertFee(fees[key], `${key} of ${symbol}`);
  }
  const { volumeShare, touchShare } = config.barFills;
  if (!(volumeShare > 0 && volumeShare <= 1))
    throw new RangeError('paper venue barFills.volumeShare must be a fraction above 0, at most 1');
  if (!(touchShare >= 0 && touchShare <= 1))
    throw new RangeError('paper venue barFills.touchShare must be a fraction from 0 to 1');
  // Never negative: a rebate on being liquidated would pay the account out of the insurance fund.
  if (!(config.liquidationFee >= 0 && config.liquidationFee < 0.1))
    throw new RangeError('paper venue liquidationFee must be a fraction from 0 up to (not including) 0.1');
  if (!(config.impact.overflowPenalty >= 0) || !Number.isFinite(config.impact.overflowPenalty)) {
    throw new RangeError('paper venue impact.overflowPenalty must be a non-negative number');
  }
  if (!Number.isInteger(config.maxTerminalOrders) || config.maxTerminalOrders < 1) {
    throw new RangeError('paper venue maxTerminalOrders must be a positive integer');
  }
  assertMarginRates(config.margin.fallback, 'paper venue margin');
  for (const [symbol, rates] of Object.entries(config.margin.bySymbol))
    assertMarginRates(rates, `paper venue margin ${symbol}`);
  if (!Number.isInteger(config.fundingIntervalMs) || config.fundingIntervalMs < 60_000) {
    throw new RangeError('paper venue fundingIntervalMs must be a whole number of ms, at least 60000');
  }
  if (!Number.isInteger(config.drawdownWindowMs) || config.drawdownWindowMs < 1_000) {
    throw new RangeError('paper venue drawdownWindowMs must be a whole number of ms, at least 1000');
  }
  if (!(config.slippageBps >= 0 && config.slippageBps <= 1_000))
    throw new RangeError('paper venue slippageBps must be a number of basis points from 0 to 1000');
  if (!MARK_PRICES.includes(config.markPrice))
    throw new RangeError(`paper venue markPrice must be one of ${MARK_PRICES.join(', ')}`);
  return config;
}

function assertFee(rate: number, name: string): void {
  if (!Number.isFinite(rate) || Math.abs(rate) >= 0.1)
    throw new RangeError(`paper venue ${name} must be a fraction between -0.1 and 0.1`);
}

/** The fee rate of a fill in `symbol`: the symbol's own when configured, else the venue's. */
export function feeRateOf(config: PaperVenueConfig, symbol: string, liquidity: 'maker' | 'taker'): number {
  const own = config.feesBySymbol[symbol];
  return liquidity === 'taker' ? (own?.takerFee ?? config.takerFee) : (own?.makerFee ?? config.makerFee);
}
