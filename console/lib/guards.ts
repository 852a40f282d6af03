/**
 * A risk guard's figures as an operator reads them (issue 35: `drawdown 0.0004 / limit 0.1` was not
 * read at a glance): drawdown as a percentage of the peak NAV, exposure as a percentage of NAV,
 * leverage as ×, the liquidity guard's cycle notional or book quantity (or, when the market data was
 * stale, its age in ms), and how much of its limit the value uses. The guards' units are those of
 * src/domain/risk/*-guard.ts. Pure, tested without a browser.
 */
import { NONE, pct, ratio } from './format.js';
import type { GuardRow } from './types.js';

export interface GuardFigures {
  value: string;
  limit: string;
  /** value / limit as a percentage: "62 %", "0.4 %" below 10 %. */
  used: string;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** An amount of any scale with separators and up to 4 decimals: 3,100 / 0.0123. */
function amount(v: number): string {
  return v.toLocaleString('en-US', { maximumFractionDigits: 4 });
}

function unit(row: GuardRow): (v: number) => string {
  switch (row.guard) {
    case 'drawdown':
      return (v) => pct(v);
    case 'exposure':
      return (v) => `${pct(v)} of NAV`;
    case 'leverage':
      return ratio;
    case 'liquidity':
      return row.code === 'LIQUIDITY_STALE' ? (v) => `${amount(Math.round(v))} ms` : amount;
    default:
      return amount;
  }
}

function used(value: number | null, limit: number | null): string {
  if (!isNum(value) || !isNum(limit) || limit <= 0) return NONE;
  const share = (value / limit) * 100;
  return `${share < 10 ? share.toFixed(1) : Math.round(share).toString()} %`;
}

export function guardFigures(row: GuardRow): GuardFigures {
  const show = unit(row);
  return {
    value: isNum(row.value) ? show(row.value) : NONE,
    limit: isNum(row.limit) ? show(row.limit) : NONE,
    used: used(row.value, row.limit),
  };
}
