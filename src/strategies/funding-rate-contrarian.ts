/**
 * `funding_rate_contrarian`: fades crowded perpetual positioning. A high positive funding rate
 * means longs pay shorts (the crowd is long), so go short (−1); a deeply negative rate means the
 * crowd is short, so go long (+1). Between −threshold and +threshold there is no edge (null).
 * Spot instruments and snapshots without a funding rate produce nothing.
 *
 * Confidence = |funding| / fullConfidenceRate, clamped to [0, 1]: with the defaults a rate just past
 * the 0.05 % threshold gives 0.25 and 0.2 % or more gives 1. Scaling from zero rather than from the
 * threshold keeps a just-triggered signal usable instead of near-zero. On the scale every agent
 * shares (signal.ts), 0.25 is a quarter of the risk budget, as a fresh momentum cross is.
 *
 * Exit: once |funding| is back at or below `exitRate` the crowding it faded is gone, so, when it
 * holds a position in the symbol, it signals flat (direction 0, confidence 1) and the allocator closes
 * the position this agent opened (and only that one). Holding nothing, it says nothing. Between `exitRate` and `threshold` it says nothing and the position is held, so a rate
 * hovering near the threshold does not open and close on alternate cycles.
 */
import { clamp } from '../domain/indicators.js';
import type { Instrument } from '../domain/market.js';
import type { Signal } from '../domain/signal.js';
import { requireNumber, resolveParams } from './strategy.js';
import type { StrategyAgent, StrategyFactory, StrategySnapshot } from '../domain/strategy-agent.js';

export const FUNDING_RATE_CONTRARIAN = 'funding_rate_contrarian';

export interface FundingRateContrarianParams {
  /** |funding| must exceed this (strictly) to signal (≥ 0, per funding interval). */
  threshold: number;
  /** |funding| at which confidence reaches 1 (> threshold). */
  fullConfidenceRate: number;
  /** |funding| at or below which it signals flat (exit); in [0, threshold]; null = threshold / 2. */
  exitRate: number | null;
}

/**
 * threshold 0.0005 (0.05 % per interval, five times the usual 0.01 % base rate), full at 0.002,
 * exit at half the threshold (0.025 %: two and a half times the base rate, so a normal market
 * closes the trade).
 */
export const DEFAULT_FUNDING_RATE_CONTRARIAN_PARAMS: Readonly<FundingRateContrarianParams> = Object.freeze({
  threshold: 0.0005,
  fullConfidenceRate: 0.002,
  exitRate: null,
});

export const createFundingRateContrarian: StrategyFactory<FundingRateContrarianParams> = (params) => {
  const p = validate(resolveParams(FUNDING_RATE_CONTRARIAN, DEFAULT_FUNDING_RATE_CONTRARIAN_PARAMS, params));
  return {
    name: FUNDING_RATE_CONTRARIAN,
    parameters: Object.keys(DEFAULT_FUNDING_RATE_CONTRARIAN_PARAMS),
    // Funding alone: the current rate is all it reads, so it asks for no history.
    lookback: 1,
    analyse: (snapshot: StrategySnapshot, instrument: Instrument): Signal | null => analyse(p, snapshot, instrument),
  } satisfies StrategyAgent;
};

function analyse(p: FundingRateContrarianParams, snapshot: StrategySnapshot, instrument: Instrument): Signal | null {
  const funding = snapshot.fundingRate;
  if (instrument.kind !== 'perp' || funding === null || !Number.isFinite(funding)) return null;
  const exitRate = p.exitRate ?? p.threshold / 2;
  if (Math.abs(funding) <= exitRate) {
    if (snapshot.position === 0) return null;
    return {
      agent: FUNDING_RATE_CONTRARIAN,
      symbol: snapshot.symbol,
      direction: 0,
      confidence: 1,
      rationale: `funding ${(funding * 100).toFixed(4)}% back within ±${(exitRate * 100).toFixed(4)}%: exit`,
    };
  }
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
  if (p.exitRate === null) return p;
  requireNumber(
    name,
    'exitRate',
    p.exitRate,
    (n) => n >= 0 && n <= p.threshold,
    `a number in [0, threshold (${p.threshold})]`,
  );
  return p;
}
