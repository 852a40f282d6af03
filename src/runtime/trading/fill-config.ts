/**
 * How the paper venue fills and what it charges (issue 22, item 2): FILL_MODEL (replays: where a
 * taker fills, `next_open` by default, or `close`), FILL_VOLUME_SHARE and FILL_TOUCH_SHARE (how a
 * replayed bar fills resting limits), SPREAD_MODEL and SPREAD_BPS (the touch of a replayed
 * candle's book), SLIPPAGE_BPS (what a taker fill pays beyond the book it walks), MARK_PRICE (what
 * positions are marked at: the book's mid or the last price), FEE_MAKER and FEE_TAKER (fractions of
 * notional). A replay's
 * manifest may give per-symbol fees, which override these (added when the replay is opened).
 */
import { DEFAULT_PAPER_VENUE_CONFIG } from '../../adapters/paper-venue/config.js';
import { FEE_RANGE } from '../../domain/fees.js';
import { FILL_MODELS, MARK_PRICES, SPREAD_MODELS } from '../../domain/market.js';
import type { FillModel, MarkPrice, SpreadModel } from '../../domain/market.js';
import { ConfigError, readNumber } from '../config.js';

export interface FillConfig {
  /** FILL_MODEL: where a replay's takers fill; the synthetic and live markets fill at their own book. */
  model: FillModel;
  /** SPREAD_MODEL (and SPREAD_BPS): the touch of a replayed candle's book; the synthetic market has its own. */
  spread: SpreadModel;
  /** FILL_VOLUME_SHARE: the share of a replayed bar's volume resting limits may fill (default 0.025). */
  volumeShare: number;
  /** FILL_TOUCH_SHARE: the share of that a touch (low or high exactly at the limit) fills (default 0). */
  touchShare: number;
  /** FEE_MAKER (default 0.0002) and FEE_TAKER (default 0.0005). */
  makerFee: number;
  takerFee: number;
  /** Per-symbol fees from a replay's manifest, overriding FEE_MAKER/FEE_TAKER for those symbols. */
  feesBySymbol: Readonly<Record<string, { makerFee?: number; takerFee?: number }>>;
  /** SLIPPAGE_BPS: a taker fill pays this many bps of its price beyond the book (default 0). */
  slippageBps: number;
  /** MARK_PRICE: positions are marked at the book's mid (default) or at the last price (a replay's close). */
  markPrice: MarkPrice;
}

export function readFillConfig(env: NodeJS.ProcessEnv): FillConfig {
  const model = env.FILL_MODEL?.trim() || 'next_open';
  if (!(FILL_MODELS as readonly string[]).includes(model))
    throw new ConfigError(`FILL_MODEL must be one of ${FILL_MODELS.join(', ')}, got "${model}"`);
  return {
    model: model as FillModel,
    spread: readSpreadModel(env),
    volumeShare: readNumber(env, 'FILL_VOLUME_SHARE', DEFAULT_PAPER_VENUE_CONFIG.barFills.volumeShare, 0.0001, 1),
    touchShare: readNumber(env, 'FILL_TOUCH_SHARE', DEFAULT_PAPER_VENUE_CONFIG.barFills.touchShare, 0, 1),
    makerFee: readNumber(
      env,
      'FEE_MAKER',
      DEFAULT_PAPER_VENUE_CONFIG.makerFee,
      FEE_RANGE.maker.min,
      FEE_RANGE.maker.max,
    ),
    takerFee: readNumber(
      env,
      'FEE_TAKER',
      DEFAULT_PAPER_VENUE_CONFIG.takerFee,
      FEE_RANGE.taker.min,
      FEE_RANGE.taker.max,
    ),
    feesBySymbol: {},
    slippageBps: readNumber(env, 'SLIPPAGE_BPS', 0, 0, MAX_SLIPPAGE_BPS),
    markPrice: readMarkPrice(env),
  };
}

/** Most basis points SLIPPAGE_BPS takes: 10 % of price per fill is a typo, not a cost model. */
const MAX_SLIPPAGE_BPS = 1_000;

function readMarkPrice(env: NodeJS.ProcessEnv): MarkPrice {
  const mark = env.MARK_PRICE?.trim() || 'mid';
  if (!(MARK_PRICES as readonly string[]).includes(mark))
    throw new ConfigError(`MARK_PRICE must be one of ${MARK_PRICES.join(', ')}, got "${mark}"`);
  return mark as MarkPrice;
}

/** Most basis points SPREAD_BPS takes: 10 % of price is no longer a spread but a typo. */
const MAX_SPREAD_BPS = 1_000;

function readSpreadModel(env: NodeJS.ProcessEnv): SpreadModel {
  const model = env.SPREAD_MODEL?.trim() || 'derived';
  if (!(SPREAD_MODELS as readonly string[]).includes(model))
    throw new ConfigError(`SPREAD_MODEL must be one of ${SPREAD_MODELS.join(', ')}, got "${model}"`);
  const bpsGiven = (env.SPREAD_BPS?.trim() ?? '') !== '';
  if (model !== 'fixed_bps') {
    if (bpsGiven)
      throw new ConfigError(`SPREAD_BPS applies only with SPREAD_MODEL=fixed_bps (SPREAD_MODEL is ${model})`);
    return { model: model as 'derived' | 'none' };
  }
  if (!bpsGiven)
    throw new ConfigError('SPREAD_MODEL=fixed_bps needs SPREAD_BPS: the spread in basis points of price (2 = 0.02 %)');
  return { model: 'fixed_bps', bps: readNumber(env, 'SPREAD_BPS', 0, 0.01, MAX_SPREAD_BPS) };
}

/** The highest fee rate any fill can pay: what the risk engine counts on an order. */
export function highestFeeRate(fills: FillConfig): number {
  const rates = [fills.makerFee, fills.takerFee];
  for (const fees of Object.values(fills.feesBySymbol)) rates.push(fees.makerFee ?? 0, fees.takerFee ?? 0);
  return Math.max(...rates);
}
