/**
 * `funding_rate_contrarian`: fades crowded perpetual positioning. A high positive funding rate
 * means longs pay shorts (the crowd is long), so go short (−1); a deeply negative rate means the
 * crowd is short, so go long (+1). Between −threshold and +threshold there is no edge (null).
 * Spot instruments and snapshots without a funding rate produce nothing.
 *
 * Confidence = |funding| / fullConfidenceRate, clamped to [0, 1]: with the defaults a rate just past
 * the 0.05 % threshold gives 0.25 and 0.2 % or more gives 1. Scaling from zero rather than from the
 * threshold keeps a just-triggered signal usable instead of near-zero.
 */
import { clamp } from '../domain/indicators.js';
import type { Instrument, MarketSnapshot } from '../domain/market.js';
import type { Signal } from '../domain/signal.js';
import { requireNumber, resolveParams } from './strategy.js';
import type { StrategyAgent, StrategyFactory } from '../domain/strategy-agent.js';

export const FUNDING_RATE_CONTRARIAN = 'funding_rate_contrarian';

export interface FundingRateContrarianParams {
  /** |funding| must exceed this (strictly) to signal (≥ 0, per funding interval). */
  threshold: number;
  /** |funding| at which confidence reaches 1 (> threshold). */
  fullConfidenceRate: number;
}

/** threshold 0.0005 (0.05 % per interval, five times the usual 0.01 % base rate), full at 0.002. */
export const DEFAULT_FUNDING_RATE_CONTRARIAN_PARAMS: Readonly<FundingRateContrarianParams> = Object.freeze({
  threshold: 0.0005,
  fullConfidenceRate: 0.002,
});

export const createFundingRateContrarian: StrategyFactory<FundingRateContrarianParams> = (params) => {
  const p = validate(resolveParams(FUNDING_RATE_CONTRARIAN, DEFAULT_FUNDING_RATE_CONTRARIAN_PARAMS, params));
  return {
    name: FUNDING_RATE_CONTRARIAN,
    analyse: (snapshot: MarketSnapshot, instrument: Instrument): Signal | null => analyse(p, snapshot, instrument),
  } satisfies StrategyAgent;
};

function analyse(p: FundingRateContrarianParams, snapshot: MarketSnapshot, instrument: Instrument): Signal | null {
  const funding = snapshot.fundingRate;
  if (instrument.kind !== 'perp' || funding === null || !Number.isFinite(funding)) return null;
  if (Math.abs(funding) <= p.threshold) return null;
  const direction = funding > 0 ? -1 : 1;
  return {
    agent: FUNDING_RATE_CONTRARIAN,
    symbol: snapshot.symbol,
    direction,
    confidence: clamp(Math.abs(funding) / p.fullConfidenceRate, 0, 1),
    rationale:
      `funding ${(funding * 100).toFixed(4)}% beyond ±${(p.threshold * 100).toFixed(4)}%: ` +
      (direction > 0 ? 'shorts crowded, go long' : 'longs crowded, go short'),
  };
}

function validate(p: FundingRateContrarianParams): FundingRateContrarianParams {
  const name = FUNDING_RATE_CONTRARIAN;
  requireNumber(name, 'threshold', p.threshold, (n) => n >= 0, 'a number ≥ 0');
  requireNumber(
    name,
    'fullConfidenceRate',
    p.fullConfidenceRate,
    (n) => n > p.threshold,
    `a number greater than threshold (${p.threshold})`,
  );
  return p;
}
