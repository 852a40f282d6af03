/**
 * The performance tracker of a simulation run: fed one observation per cycle and one per fill, it
 * keeps only online accumulators and bounded series, so its memory stays flat over any number of
 * cycles and each cycle costs a few additions. summary() computes the metrics defined in
 * docs/strategies/simulation-metrics.md; series() gives the downsampled data the report draws.
 */
import type { ExitReason } from '../protection.js';
import { BuyAndHold } from './benchmark.js';
import { CostTally } from './cost-tally.js';
import { DailyReturns } from './daily-returns.js';
import type { HistogramBin } from './daily-returns.js';
import { DrawdownTracker } from './drawdown.js';
import { WorstDrawdowns } from './drawdown-episodes.js';
import { MinMaxSeries, RingBuffer } from './downsample.js';
import type { SeriesPoint } from './downsample.js';
import { NO_STRATEGY } from './observations.js';
import type { CycleObservation, TradeObservation } from './observations.js';
import { humanDuration, ratio, round, sortedRecord } from './run-summary.js';
import type { AgentErrorObservation, RunSummary, StrategyPnl, SymbolPnl } from './run-summary.js';
import { FillMarkers } from './fill-markers.js';
import type { FillMarker } from './fill-markers.js';
import { MonthlyReturns } from './monthly-returns.js';
import { SymbolBook } from './symbol-book.js';
import type { FillResult, StrategyTotals } from './symbol-book.js';
import { RoundTrips } from './round-trips.js';
import type { RoundTrip } from './round-trips.js';
import { TradeLedger } from './trade-stats.js';
import { FunnelTally } from '../signal-funnel-tally.js';
import type { SignalFate } from '../signal-funnel.js';
import { ReturnAccumulator } from './welford.js';

/** A 24/7 market: 365 days a year. */
const YEAR_MS = 365 * 86_400_000;
const SERIES_POINTS = 2000;
/** Fill-marker buckets per symbol: about 10 px each on the report's 1,100 px wide charts. */
const MARKER_BUCKETS = 100;
const LAST_TRADES = 50;
/** Round trips the report lists (round-trips.csv has them all). */
const LAST_ROUND_TRIPS = 100;
/** The rolling window of the report's Sharpe and volatility charts, days. */
const ROLLING_DAYS = 30;
const DAY_MS = 86_400_000;

export interface TrackerOptions {
  startingCash: number;
  /** Simulated length of one cycle, ms: sets the annualisation (cycles per year = YEAR / cycleMs). */
  cycleMs: number;
  symbols: readonly string[];
  strategies: readonly string[];
}

/** What one cycle adds to equity.csv beside the observation itself. */
export interface CycleRow {
  /** Fall below the running NAV peak, fraction of the peak (0 at a peak). */
  drawdown: number;
  /** Σ |qty × mark|, quote currency. */
  grossExposure: number;
  /** Σ qty × mark, quote currency. */
  netExposure: number;
}

export type { FillMarker } from './fill-markers.js';

export interface RecentFill extends TradeObservation {
  realized: number;
}

export interface ReportSeries {
  equity: SeriesPoint[];
  /** Drawdown as a negative fraction (−0.1 = 10 % below the peak), so troughs are minima. */
  drawdown: SeriesPoint[];
  /** The equal-weighted buy-and-hold benchmark's value (docs/strategies/simulation-metrics.md, Benchmark). */
  benchmark: SeriesPoint[];
  /** Gross exposure / NAV (cycles with a NAV ≤ 0 are left out). */
  exposure: SeriesPoint[];
  prices: Record<string, SeriesPoint[]>;
  fills: Record<string, FillMarker[]>;
  lastTrades: RecentFill[];
  /** The last closed round trips, oldest first. */
  roundTrips: RoundTrip[];
  /** Daily (UTC) returns of the strategy, at each day's start. */
  dailyReturns: SeriesPoint[];
  /** Annualised Sharpe and volatility over trailing 30-day windows, at each window's end. */
  rollingSharpe: SeriesPoint[];
  rollingVolatility: SeriesPoint[];
  /** The distribution of daily returns. */
  returnHistogram: HistogramBin[];
}

/** What the tracker made of a fill: the book's result and the round trip it closed, if any. */
export interface TrackedFill extends FillResult {
  roundTrip: RoundTrip | null;
}

export interface SummaryOptions {
  /** Epoch ms; default: the first cycle's end minus one cycle. */
  from?: number;
  /** Epoch ms; default: the last cycle's end. */
  to?: number;
  partial?: boolean;
}

export interface PerformanceTracker {
  cycle(obs: CycleObservation): CycleRow;
  trade(t: TradeObservation): TrackedFill;
  /** One denied order, named by the guard that failed. */
  denial(guard: string): void;
  /** What became of a cycle's signals (the funnel); an order's fill through `trade` moves its signal to filled. */
  signals(fates: readonly SignalFate[]): void;
  /** A strategy threw while analysing a symbol. */
  agentError(error: AgentErrorObservation): void;
  summary(options?: SummaryOptions): RunSummary;
  series(): ReportSeries;
}

export function createPerformanceTracker(options: TrackerOptions): PerformanceTracker {
  const { startingCash, cycleMs } = options;
  if (!(startingCash > 0)) throw new RangeError(`startingCash must be > 0, got ${startingCash}`);
  if (!(cycleMs > 0)) throw new RangeError(`cycleMs must be > 0, got ${cycleMs}`);

  const returns = new ReturnAccumulator();
  let drawdown: DrawdownTracker | null = null;
  let worstDrawdowns: WorstDrawdowns | null = null;
  let cycles = 0;
  let exposedCycles = 0;
  let navSum = 0;
  let prevNav = startingCash;
  let firstTs: number | null = null;
  let last: CycleObservation | null = null;
  let closedTrips = 0;
  let wins = 0;
  let grossWin = 0;
  let grossLoss = 0;
  let liquidations = 0;
  const exits: Record<ExitReason, number> = { stop_loss: 0, take_profit: 0, trailing_stop: 0 };
  let denials = 0;
  const costs = new CostTally();

  const strategyTotals = new Map<string, StrategyTotals>();
  const totalsOf = (strategy: string): StrategyTotals => {
    let totals = strategyTotals.get(strategy);
    if (totals === undefined) strategyTotals.set(strategy, (totals = { realized: 0, fees: 0, funding: 0 }));
    return totals;
  };
  for (const s of options.strategies) totalsOf(s);

  const books = new Map<string, SymbolBook>();
  const symbolFunding = new Map<string, number>();
  /** Books with fills since the last cycle observation (their lots as the cycle began are kept). */
  const tradedThisCycle = new Set<SymbolBook>();
  const bookOf = (symbol: string): SymbolBook => {
    let book = books.get(symbol);
    if (book === undefined) books.set(symbol, (book = new SymbolBook(totalsOf)));
    return book;
  };
  for (const s of options.symbols) bookOf(s);

  const denialsByGuard = new Map<string, number>();
  const funnel = new FunnelTally(options.strategies);
  const agentErrors = new Map<string, number>();
  let firstAgentError: AgentErrorObservation | null = null;
  const equity = new MinMaxSeries(SERIES_POINTS);
  const underwater = new MinMaxSeries(SERIES_POINTS);
  const prices = new Map<string, MinMaxSeries>();
  const markers = new Map<string, FillMarkers>();
  const benchmark = new BuyAndHold(startingCash, options.symbols);
  const benchmarkSeries = new MinMaxSeries(SERIES_POINTS);
  const exposure = new MinMaxSeries(SERIES_POINTS);
  let exposureSum = 0;
  let exposureMax: number | null = null;
  let exposureCycles = 0;
  const monthly = new MonthlyReturns(startingCash);
  const ledger = new TradeLedger();
  const roundTrips = new RoundTrips();
  const lastRoundTrips = new RingBuffer<RoundTrip>(LAST_ROUND_TRIPS);
  const daily = new DailyReturns(startingCash);
  const lastTrades = new RingBuffer<RecentFill>(LAST_TRADES);

  /**
   * Credits the change in one symbol's cumulative funding to the symbol and to the strategies whose
   * lots held the position when it was paid (symbol-book.ts: as the cycle began), by quantity.
   */
  function creditFunding(symbol: string, cumulative: number): void {
    const delta = cumulative - (symbolFunding.get(symbol) ?? 0);
    if (delta === 0) return;
    symbolFunding.set(symbol, cumulative);
    const shared = bookOf(symbol).shareAmongLots(delta, (strategy, part) => (totalsOf(strategy).funding += part));
    if (!shared) totalsOf(NO_STRATEGY).funding += delta;
  }

  return {
    cycle(obs) {
      if (last !== null && obs.ts < last.ts) {
        throw new RangeError(`cycle observations must be in time order: ${obs.ts} after ${last.ts}`);
      }
      if (firstTs === null) {
        firstTs = obs.ts;
        drawdown = new DrawdownTracker(startingCash, obs.ts - cycleMs);
        worstDrawdowns = new WorstDrawdowns(startingCash, obs.ts - cycleMs);
      }
      cycles += 1;
      navSum += obs.nav;
      if (prevNav > 0) returns.add(obs.nav / prevNav - 1);
      prevNav = obs.nav;
      const dd = drawdown!.add(obs.nav, obs.ts);
      worstDrawdowns!.add(obs.nav, obs.ts);

      let gross = 0;
      let net = 0;
      for (const p of obs.positions) {
        const notional = p.qty * p.markPrice;
        gross += Math.abs(notional);
        net += notional;
      }
      if (gross > 0) exposedCycles += 1;
      if (obs.nav > 0) {
        const leverage = gross / obs.nav;
        exposure.add(obs.ts, leverage);
        exposureSum += leverage;
        exposureCycles += 1;
        exposureMax = Math.max(exposureMax ?? 0, leverage);
      }
      const held = benchmark.add(obs.ts, obs.marks);
      benchmarkSeries.add(obs.ts, held);
      daily.add(obs.ts, obs.nav, held);
      for (const symbol of roundTrips.openSymbols()) {
        const mark = obs.positions.find((p) => p.symbol === symbol)?.markPrice ?? obs.marks[symbol];
        if (mark !== undefined) roundTrips.mark(symbol, mark);
      }
      monthly.add(obs.ts, obs.nav);
      if (obs.fundingBySymbol !== undefined) {
        for (const symbol in obs.fundingBySymbol) creditFunding(symbol, obs.fundingBySymbol[symbol]!);
      }
      for (const book of tradedThisCycle) book.cycleEnded();
      tradedThisCycle.clear();

      equity.add(obs.ts, obs.nav);
      underwater.add(obs.ts, -dd);
      for (const symbol in obs.marks) {
        let series = prices.get(symbol);
        if (series === undefined) prices.set(symbol, (series = new MinMaxSeries(SERIES_POINTS)));
        series.add(obs.ts, obs.marks[symbol]!);
      }
      last = obs;
      return { drawdown: dd, grossExposure: gross, netExposure: net };
    },

    trade(t) {
      if (!(t.qty > 0) || !Number.isFinite(t.price)) {
        throw new RangeError(`fill ${t.clientOrderId}: qty must be > 0 and price finite`);
      }
      const book = bookOf(t.symbol);
      const result = book.fill(t);
      costs.add(t.symbol, t.spreadCost, t.slippageCost);
      tradedThisCycle.add(book);
      funnel.filled(t.clientOrderId);
      if (t.kind === 'liquidation') liquidations += 1;
      else if (t.kind in exits) exits[t.kind as ExitReason] += 1;
      if (result.closedRoundTrip !== null) {
        closedTrips += 1;
        if (result.closedRoundTrip > 0) {
          wins += 1;
          grossWin += result.closedRoundTrip;
        } else if (result.closedRoundTrip < 0) grossLoss -= result.closedRoundTrip;
      }
      ledger.fill(t, result);
      const roundTrip = roundTrips.fill(t, result);
      if (roundTrip !== null) lastRoundTrips.add(roundTrip);
      let sample = markers.get(t.symbol);
      if (sample === undefined) markers.set(t.symbol, (sample = new FillMarkers(cycleMs, MARKER_BUCKETS)));
      sample.add(t);
      lastTrades.add({ ...t, realized: result.realized });
      return { ...result, roundTrip };
    },

    denial(guard) {
      denials += 1;
      denialsByGuard.set(guard, (denialsByGuard.get(guard) ?? 0) + 1);
    },

    signals(fates) {
      funnel.add(fates);
    },

    agentError(error) {
      agentErrors.set(error.agent, (agentErrors.get(error.agent) ?? 0) + 1);
      firstAgentError ??= { agent: error.agent, symbol: error.symbol, message: error.message };
    },

    summary(opts = {}) {
      const finalNav = last?.nav ?? startingCash;
      const from = opts.from ?? (firstTs === null ? null : firstTs - cycleMs);
      const to = opts.to ?? last?.ts ?? null;
      const marks = last?.marks ?? {};

      // Per symbol: trading PnL at the last mark; per strategy: realized + open lots at that mark. The
      // mark is the venue's for a position it holds (what NAV counts), else the chart's last price:
      // a replay's last trade sits on the bid, half a spread from the venue's mid.
      const unrealizedByStrategy = new Map<string, number>();
      const bySymbol = new Map<string, SymbolPnl>();
      let symbolNet = 0;
      let symbolFundingTotal = 0;
      for (const [symbol, book] of books) {
        const mark = last?.positions.find((p) => p.symbol === symbol)?.markPrice ?? marks[symbol];
        const unrealized =
          mark === undefined
            ? 0
            : book.unrealized(mark, (s, pnl) => unrealizedByStrategy.set(s, (unrealizedByStrategy.get(s) ?? 0) + pnl));
        const trading = book.realized + unrealized;
        const funding = symbolFunding.get(symbol) ?? 0;
        const net = trading - book.fees + funding;
        symbolNet += net;
        symbolFundingTotal += funding;
        bySymbol.set(symbol, {
          net: round(net),
          trading: round(trading),
          fees: round(book.fees),
          funding: round(funding),
          fills: book.fills,
          volume: round(book.volume),
        });
      }
      const byStrategy = new Map<string, StrategyPnl>();
      for (const [strategy, t] of strategyTotals) {
        const trading = t.realized + (unrealizedByStrategy.get(strategy) ?? 0);
        byStrategy.set(strategy, {
          net: round(trading - t.fees + t.funding),
          trading: round(trading),
          fees: round(t.fees),
          funding: round(t.funding),
        });
      }

      const fundingTotal = last?.fundingPnl ?? 0;
      const fundingUnattributed = fundingTotal - symbolFundingTotal;
      const pnl = finalNav - startingCash;
      const totalReturn = finalNav / startingCash - 1;
      const years = (cycles * cycleMs) / YEAR_MS;
      const cagr = cycles === 0 ? null : finalNav <= 0 ? -1 : Math.pow(finalNav / startingCash, 1 / years) - 1;
      const perYear = YEAR_MS / cycleMs;
      const std = Math.sqrt(returns.variance);
      const downside = Math.sqrt(returns.downsideVariance);
      const maxDd = drawdown?.maxDrawdown ?? 0;
      const ddSeconds = (drawdown?.longestUnderwaterMs ?? 0) / 1000;
      let volume = 0;
      for (const book of books.values()) volume += book.volume;
      const ledgerStats = ledger.summary();

      return {
        partial: opts.partial ?? false,
        cycles,
        from: from === null ? null : new Date(from).toISOString(),
        to: to === null ? null : new Date(to).toISOString(),
        cycle_seconds: round(cycleMs / 1000),
        starting_cash: round(startingCash),
        final_nav: round(finalNav),
        pnl: round(pnl),
        total_return: round(totalReturn),
        cagr: round(cagr),
        volatility: round(std * Math.sqrt(perYear)),
        sharpe: returns.count > 1 && std > 0 ? round((returns.mean / std) * Math.sqrt(perYear)) : null,
        sortino: downside > 0 ? round((returns.mean / downside) * Math.sqrt(perYear)) : null,
        max_drawdown: round(maxDd),
        max_drawdown_duration: round(ddSeconds),
        max_drawdown_duration_human: humanDuration(ddSeconds),
        calmar: maxDd > 0 && cagr !== null ? ratio(cagr, maxDd) : null,
        trades: closedTrips,
        fills: [...books.values()].reduce((n, b) => n + b.fills, 0),
        win_rate: ratio(wins, closedTrips),
        profit_factor: ratio(grossWin, grossLoss),
        avg_trade_pnl: ratio(grossWin - grossLoss, closedTrips),
        turnover: cycles > 0 ? ratio(volume, navSum / cycles) : null,
        fees: round(last?.feesPaid ?? 0),
        costs: costs.summary(last?.feesPaid ?? 0, new Map([...books].map(([symbol, b]) => [symbol, b.fees]))),
        funding: round(fundingTotal),
        funding_unattributed: round(fundingUnattributed),
        pnl_unexplained: round(pnl - symbolNet - fundingUnattributed),
        exposure_time: ratio(exposedCycles, cycles),
        liquidations,
        exits_by_reason: { ...exits },
        pnl_by_symbol: sortedRecord(bySymbol),
        pnl_by_strategy: sortedRecord(byStrategy),
        denials,
        denials_by_guard: sortedRecord(denialsByGuard),
        agent_errors: [...agentErrors.values()].reduce((n, c) => n + c, 0),
        agent_errors_by_agent: sortedRecord(agentErrors),
        first_agent_error: firstAgentError,
        benchmark: benchmark.summary(cycles === 0 ? null : totalReturn),
        monthly_returns: monthly.rows(),
        ...ledgerStats,
        avg_gross_exposure: exposureCycles > 0 ? round(exposureSum / exposureCycles) : null,
        max_gross_exposure: round(exposureMax),
        signal_funnel: funnel.summary(),
        run_days: round((cycles * cycleMs) / DAY_MS),
        expectancy_ratio:
          closedTrips > 0 && ledgerStats.trade_stats.avg_loss !== null && ledgerStats.trade_stats.avg_loss < 0
            ? ratio((grossWin - grossLoss) / closedTrips, -ledgerStats.trade_stats.avg_loss)
            : null,
        worst_drawdowns: worstDrawdowns?.episodes() ?? [],
        daily_returns: daily.stats(),
        weekly_returns: daily.weekly(),
        ...daily.alphaBeta(),
      };
    },

    series() {
      const priceRecord: Record<string, SeriesPoint[]> = {};
      for (const symbol of [...prices.keys()].sort()) priceRecord[symbol] = prices.get(symbol)!.points();
      const fills: Record<string, FillMarker[]> = {};
      for (const symbol of [...markers.keys()].sort()) fills[symbol] = markers.get(symbol)!.values();
      const rolling = daily.rolling(ROLLING_DAYS);
      return {
        equity: equity.points(),
        drawdown: underwater.points(),
        benchmark: benchmarkSeries.points(),
        exposure: exposure.points(),
        prices: priceRecord,
        fills,
        lastTrades: lastTrades.values(),
        roundTrips: lastRoundTrips.values(),
        dailyReturns: daily.returns().flatMap((d) => (d.strategy === null ? [] : [{ t: d.t, v: d.strategy }])),
        rollingSharpe: rolling.sharpe,
        rollingVolatility: rolling.volatility,
        returnHistogram: daily.histogram(),
      };
    },
  };
}
