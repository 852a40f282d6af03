/**
 * One trial: a `tcs simulate` run (run-simulation.ts, unchanged, as a library) of the trial's
 * variables on its window, in a directory of its own, and the figures of its summary.json. The
 * trial sees only its own variables — not the environment or .env of the process that runs it — so
 * it gives the same summary on any worker of any machine.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runSimulation } from '../simulate/run-simulation.js';
import type { CycleHook } from '../simulate/run-simulation.js';
import type { SimulateOptions } from '../simulate/simulate-options.js';
import { trialFigures } from './sweep-objective.js';
import type { Figures } from './sweep-objective.js';
import type { TrialJob } from './sweep-trials.js';
import type { DataWindow } from './sweep-spec.js';

export interface TrialResult {
  id: string;
  /** The run ended before its planned cycles (the circuit breaker killed trading). */
  partial: boolean;
  figures: Figures;
  /** The run's length in days (cycles × cycle length), what its returns are annualised over. */
  days: number;
  /** The run's starting cash and equity rows [ts, nav], for a job that asks (walk-forward's out-of-sample runs). */
  equity?: { startingCash: number; rows: [string, number][] };
}

/** Thrown when the run was interrupted (Ctrl-C): the trial is not done and must not count as done. */
export class TrialInterrupted extends Error {
  override name = 'TrialInterrupted';
}

export async function runTrial(job: TrialJob, out: string, afterCycle?: CycleHook): Promise<TrialResult> {
  // A trial run again (retried after its worker died, on the same machine) starts from nothing:
  // the run would otherwise reopen the old attempt's event store.
  rmSync(out, { recursive: true, force: true });
  const { exitCode } = await runSimulation({ ...job.env }, trialOptions(job.window, out), afterCycle);
  if (exitCode !== 0) throw new TrialInterrupted(`trial ${job.id} was interrupted`);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Record<string, unknown>;
  const result: TrialResult = {
    id: job.id,
    partial: summary.partial === true,
    figures: trialFigures(summary),
    days: (Number(summary.cycles) * Number(summary.cycle_seconds)) / 86_400,
  };
  // Carried in the result, not read from the run directory: a queued trial's directory is on its worker.
  if (job.equity === true)
    result.equity = { startingCash: Number(summary.starting_cash), rows: equityRows(join(out, 'equity.csv')) };
  return result;
}

/** equity.csv's ts and nav columns (its first two, docs/strategies/simulation-metrics.md). */
function equityRows(file: string): [string, number][] {
  const lines = readFileSync(file, 'utf8').split('\n').slice(1);
  const rows: [string, number][] = [];
  for (const line of lines) {
    if (line === '') continue;
    const [ts, nav] = line.split(',', 2);
    rows.push([ts!, Number(nav)]);
  }
  return rows;
}

/** `tcs simulate`'s options for a trial's window, quiet: the sweep draws its own progress. */
export function trialOptions(window: DataWindow, out: string): SimulateOptions {
  return {
    out,
    cycles: window.cycles,
    seed: window.seed,
    data: window.dir,
    from: window.from,
    to: window.to,
    strategies: null,
    symbols: null,
    cash: null,
    cycleSeconds: null,
    // The sweep runs a trial per core: a thread more per trial would only take turns with them.
    auditThread: false,
    quiet: true,
  };
}
