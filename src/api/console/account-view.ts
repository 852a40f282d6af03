/**
 * The account as the console reads it: the portfolio the trading process last published, in the
 * API's snake_case, with the figures an operator watches (drawdown from peak, gross exposure and
 * leverage computed as the trading process's own gauges compute them, and the margin it reported).
 * Pure, so the route stays "read, then answer" and the tests can hold the figures to the formulas.
 */
import type { Static } from 'typebox';
import type { Instrument } from '../../domain/market.js';
import { roundQuote } from '../../domain/steps.js';
import type { PortfolioDocument, TradingMetricsDocument } from '../../domain/runtime-documents.js';
import type { AccountSchema } from './schemas.js';

/** GET /control/portfolio's body, as its schema (which also serialises it) defines it. */
export type AccountView = Static<typeof AccountSchema>;

/**
 * The trading process's `tcs_trading_margin_used` gauge from its metrics text: it alone knows the
 * margin rates it runs with (MARGIN_RATES is trading configuration), so the API does not guess them.
 */
export function marginUsedFrom(metrics: TradingMetricsDocument | null): number | null {
  const match = metrics?.text.match(/^tcs_trading_margin_used(?:\{[^}]*\})? (\S+)$/m);
  const value = match ? Number(match[1]) : NaN;
  return Number.isFinite(value) ? value : null;
}

/** Before the trading process has published anything, there is nothing to show: null, never 0. */
const NO_FIGURES = {
  nav: null,
  peak_nav: null,
  cash: null,
  realized_pnl: null,
  unrealized_pnl: null,
  funding_pnl: null,
  fees_paid: null,
  starting_nav: null,
  pnl_since_start: null,
  drawdown: null,
  gross_exposure: null,
  leverage: null,
  margin_used: null,
} as const;

export function accountView(
  instruments: readonly Instrument[],
  portfolio: PortfolioDocument | null,
  metrics: TradingMetricsDocument | null,
): AccountView {
  const symbols = instruments.map((i) => ({ symbol: i.symbol, kind: i.kind, lot_size: i.lotSize }));
  const positions = (portfolio?.positions ?? []).map((p) => ({
    symbol: p.symbol,
    kind: p.kind,
    qty: p.qty,
    entry_price: p.entryPrice,
    mark_price: p.markPrice,
    notional: Math.abs(p.qty * p.markPrice),
    unrealized_pnl: p.unrealizedPnl,
    realized_pnl: p.realizedPnl,
  }));
  const open_orders = (portfolio?.openOrders ?? []).map((o) => ({
    client_order_id: o.clientOrderId,
    symbol: o.symbol,
    side: o.side,
    type: o.type,
    qty: o.qty,
    filled_qty: o.filledQty,
    limit_price: o.limitPrice,
    reduce_only: o.reduceOnly,
    status: o.status,
    created_at: new Date(o.createdAt).toISOString(),
  }));
  if (!portfolio) {
    return { symbols, published_at: null, ...NO_FIGURES, positions, open_orders };
  }
  const gross = positions.reduce((sum, p) => sum + p.notional, 0);
  const { nav, peakNav } = portfolio;
  const start = portfolio.startingCash ?? null;
  return {
    symbols,
    published_at: new Date(portfolio.ts).toISOString(),
    nav,
    peak_nav: peakNav,
    cash: portfolio.cash,
    realized_pnl: portfolio.realizedPnl,
    unrealized_pnl: portfolio.unrealizedPnl,
    funding_pnl: portfolio.fundingPnl,
    fees_paid: portfolio.feesPaid,
    starting_nav: start,
    // Rounded as the venue rounds NAV, so 99,999.82 − 100,000 is −0.18, not −0.18000000000291.
    pnl_since_start: start === null ? null : roundQuote(nav - start),
    // The same formulas as the trading gauges (adapters/metrics/trading-metrics.ts).
    drawdown: peakNav > 0 ? Math.max(0, (peakNav - nav) / peakNav) : 0,
    gross_exposure: gross,
    leverage: nav > 0 ? gross / nav : 0,
    margin_used: marginUsedFrom(metrics),
    positions,
    open_orders,
  };
}
