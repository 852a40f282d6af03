/**
 * The files of a simulation run (summary.json, trades.csv, equity.csv, round-trips.csv, report.html; see
 * docs/strategies/simulation-metrics.md) and the summary table printed at its end. The recorder streams the
 * CSVs as the run goes, so a long run holds none of them in memory.
 */
import { openRunRecorder } from '../../adapters/simulation-report/run-recorder.js';
import { printSummaryTable } from '../../adapters/simulation-report/summary-table.js';
import type { RunSummary } from '../../domain/performance/run-summary.js';
import type { TradingConfig } from '../trading/trading-config.js';
import type { RunSink } from './run-observer.js';

export interface RunOutput {
  sink: RunSink;
  /** Writes summary.json and report.html, closes the CSVs, prints the table; returns the summary. */
  finish(end: { to: number; partial: boolean }): RunSummary;
}

export interface RunDescription {
  /** The clock at the first cycle (the end of the run's first period). */
  start: number;
  market: string;
  strategies: readonly string[];
  cycles: number;
  /** Rows per write of the CSV files (the recorder's default otherwise). */
  csvBatchRows?: number;
}

export function createRunOutput(out: string, config: TradingConfig, run: RunDescription): RunOutput {
  const symbols = config.instruments.map((i) => i.symbol);
  const recorder = openRunRecorder({
    dir: out,
    startingCash: config.startingCash,
    cycleMs: config.cycleMs,
    symbols,
    strategies: run.strategies,
    title: `Simulation: ${run.strategies.join(', ')} on ${symbols.join(', ')}`,
    ...(run.csvBatchRows === undefined ? {} : { csvBatchRows: run.csvBatchRows }),
    settings: {
      market: run.market,
      strategies: run.strategies.join(', '),
      symbols: config.instruments.map((i) => `${i.symbol} (${i.kind})`).join(', '),
      'cycle seconds': String(config.cycleMs / 1000),
      'starting cash': String(config.startingCash),
      'cycles planned': String(run.cycles),
      'order style': config.orderStyle,
      fees: feesNote(config.fills),
    },
  });
  return {
    sink: recorder,
    finish(end) {
      // The run's span starts one cycle before the first cycle's end: --from, or the first candle's open.
      const summary = recorder.finish({ from: run.start - config.cycleMs, to: end.to, partial: end.partial });
      printSummaryTable(summary);
      return summary;
    },
  };
}

/** The fee rates a run charged, as the report's settings show them: the venue's, then each symbol's own. */
function feesNote(fills: TradingConfig['fills']): string {
  const own = Object.entries(fills.feesBySymbol).map(
    ([symbol, f]) =>
      `; ${symbol}${f.makerFee === undefined ? '' : ` maker ${f.makerFee}`}${f.takerFee === undefined ? '' : ` taker ${f.takerFee}`}`,
  );
  return `maker ${fills.makerFee}, taker ${fills.takerFee}${own.join('')}`;
}
