/**
 * How the paper venue fills and what it charges (issue 22, item 2): FILL_MODEL (replays: where a
 * taker fills, `next_open` by default, or `close`), FILL_VOLUME_SHARE and FILL_TOUCH_SHARE (how a
 * replayed bar fills resting limits), FEE_MAKER and FEE_TAKER (fractions of notional). A replay's
 * manifest may give per-symbol fees, which override these (added when the replay is opened).
 */
import { DEFAULT_PAPER_VENUE_CONFIG } from '../../adapters/paper-venue/config.js';
import { FEE_RANGE } from '../../domain/fees.js';
import { FILL_MODELS } from '../../domain/market.js';
import type { FillModel } from '../../domain/market.js';
import { ConfigError, readNumber } from '../config.js';

export interface FillConfig {
  /** FILL_MODEL: where a replay's takers fill; the synthetic and live markets fill at their own book. */
  model: FillModel;
  /** FILL_VOLUME_SHARE: the share of a replayed bar's volume resting limits may fill (default 0.025). */
  volumeShare: number;
  /** FILL_TOUCH_SHARE: the share of that a touch (low or high exactly at the limit) fills (default 0). */
  touchShare: number;
  /** FEE_MAKER (default 0.0002) and FEE_TAKER (default 0.0005). */
  makerFee: number;
  takerFee: number;
  /** Per-symbol fees from a replay's manifest, overriding FEE_MAKER/FEE_TAKER for those symbols. */
  feesBySymbol: Readonly<Record<string, { makerFee?: number; takerFee?: number }>>;
}

export function readFillConfig(env: NodeJS.ProcessEnv): FillConfig {
  const model = env.FILL_MODEL?.trim() || 'next_open';
  if (!(FILL_MODELS as readonly string[]).includes(model))
    throw new ConfigError(`FILL_MODEL must be one of ${FILL_MODELS.join(', ')}, got "${model}"`);
  return {
    model: model as FillModel,
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
  };
}

/** The highest fee rate any fill can pay: what the risk engine counts on an order. */
export function highestFeeRate(fills: FillConfig): number {
  const rates = [fills.makerFee, fills.takerFee];
  for (const fees of Object.values(fills.feesBySymbol)) rates.push(fees.makerFee ?? 0, fees.takerFee ?? 0);
  return Math.max(...rates);
}
