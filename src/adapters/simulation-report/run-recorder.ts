/**
 * A simulation run's result files, written as the run goes: the simulator hands each cycle, fill
 * and denial to the recorder, which feeds the performance tracker and streams trades.csv,
 * equity.csv and round-trips.csv; finish() writes summary.json and report.html and closes the CSVs. The column lists
 * are documented in docs/strategies/simulation-metrics.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CycleObservation, TradeObservation } from '../../domain/performance/observations.js';
import { round, summaryJson } from '../../domain/performance/run-summary.js';
import type { AgentErrorObservation, RunSummary } from '../../domain/performance/run-summary.js';
import { createPerformanceTracker } from '../../domain/performance/tracker.js';
import type { SignalFate } from '../../domain/signal-funnel.js';
import type { SummaryOptions, TrackerOptions } from '../../domain/performance/tracker.js';
import { CsvFile } from './csv-file.js';
import { isoTime as iso } from './iso-time.js';
import { renderReportHtml } from './report-html.js';

export const TRADE_COLUMNS = [
  'ts',
  'client_order_id',
  'symbol',
  'side',
  'qty',
  'price',
  'notional',
  'fee',
  'liquidity',
  'strategy',
  'kind',
  'realized_pnl',
  'position_after',
  'spread_cost',
  'slippage_cost',
] as const;

export const ROUND_TRIP_COLUMNS = [
  'symbol',
  'strategy',
  'side',
  'entry_time',
  'entry_price',
  'exit_time',
  'exit_price',
  'qty',
  'duration_seconds',
  'pnl',
  'fees',
  'exit',
  'mae',
  'mfe',
] as const;

export const EQUITY_COLUMNS = ['ts', 'nav', 'cash', 'drawdown', 'gross_exposure', 'net_exposure'] as const;

export interface RunRecorderOptions extends TrackerOptions {
  /** The run directory; created if missing. Existing result files in it are replaced. */
  dir: string;
  /** The report's heading. */
  title?: string;
  /** Run settings shown in the report (seed, data, strategies…). */
  settings?: Record<string, string>;
  /** Rows per write of the CSV files (CsvFile's default otherwise). */
  csvBatchRows?: number;
}

export interface RunFiles {
  summary: string;
  report: string;
  trades: string;
  equity: string;
  /** Every closed round trip, one row each (the report lists the last 100). */
  roundTrips: string;
}

export interface RunRecorder {
  readonly files: RunFiles;
  cycle(obs: CycleObservation): void;
  trade(t: TradeObservation): void;
  denial(guard: string): void;
  signals(fates: readonly SignalFate[]): void;
  agentError(error: AgentErrorObservation): void;
  /** Writes summary.json and report.html, closes the CSVs, and returns the summary. Once only. */
  finish(options?: SummaryOptions): RunSummary;
}

export function openRunRecorder(options: RunRecorderOptions): RunRecorder {
  mkdirSync(options.dir, { recursive: true });
  const files: RunFiles = {
    summary: join(options.dir, 'summary.json'),
    report: join(options.dir, 'report.html'),
    trades: join(options.dir, 'trades.csv'),
    equity: join(options.dir, 'equity.csv'),
    roundTrips: join(options.dir, 'round-trips.csv'),
  };
  const tracker = createPerformanceTracker(options);
  const trades = new CsvFile(files.trades, TRADE_COLUMNS, options.csvBatchRows);
  const equity = new CsvFile(files.equity, EQUITY_COLUMNS, options.csvBatchRows);
  const roundTrips = new CsvFile(files.roundTrips, ROUND_TRIP_COLUMNS, options.csvBatchRows);
  let finished = false;

  return {
    files,
    cycle(obs) {
      const row = tracker.cycle(obs);
      equity.numericRow(
        iso(obs.ts),
        round(obs.nav),
        round(obs.cash),
        round(row.drawdown),
        round(row.grossExposure),
        round(row.netExposure),
      );
    },
    trade(t) {
      const result = tracker.trade(t);
      trades.row([
        iso(t.ts),
        t.clientOrderId,
        t.symbol,
        t.side,
        round(t.qty),
        round(t.price),
        round(t.qty * t.price),
        round(t.fee),
        t.liquidity,
        t.strategy ?? '',
        t.kind,
        round(result.realized),
        round(result.positionAfter),
        round(t.spreadCost ?? 0),
        round(t.slippageCost ?? 0),
      ]);
      const trip = result.roundTrip;
      if (trip !== null) {
        roundTrips.row([
          trip.symbol,
          trip.strategy,
          trip.side,
          trip.entry_time,
          trip.entry_price,
          trip.exit_time,
          trip.exit_price,
          trip.qty,
          trip.duration_seconds,
          trip.pnl,
          trip.fees,
          trip.exit,
          trip.mae,
          trip.mfe,
        ]);
      }
    },
    denial(guard) {
      tracker.denial(guard);
    },
    signals(fates) {
      tracker.signals(fates);
    },
    agentError(error) {
      tracker.agentError(error);
    },
    finish(summaryOptions) {
      if (finished) throw new Error(`run recorder for ${options.dir} already finished`);
      finished = true;
      trades.close();
      equity.close();
      roundTrips.close();
      const summary = tracker.summary(summaryOptions);
      writeFileSync(files.summary, summaryJson(summary));
      const html = renderReportHtml({
        title: options.title ?? 'Simulation run',
        summary,
        series: tracker.series(),
        settings: options.settings,
      });
      writeFileSync(files.report, html);
      return summary;
    },
  };
}
