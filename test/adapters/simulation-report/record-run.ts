/**
 * Records a generated run into a directory with the real recorder: the input of the file and
 * browser tests of the simulation report.
 */
import type { RunSummary } from '../../../src/domain/performance/run-summary.js';
import { openRunRecorder } from '../../../src/adapters/simulation-report/run-recorder.js';
import type { RunFiles } from '../../../src/adapters/simulation-report/run-recorder.js';
import { syntheticRun } from '../../domain/performance/synthetic-run.js';
import type { SyntheticRunOptions } from '../../domain/performance/synthetic-run.js';

export function recordRun(
  dir: string,
  options: SyntheticRunOptions & { partial?: boolean; title?: string },
): { summary: RunSummary; files: RunFiles } {
  const recorder = openRunRecorder({
    dir,
    startingCash: options.startingCash ?? 10_000,
    cycleMs: options.cycleMs ?? 60_000,
    symbols: options.symbols ?? ['BTCUSDT', 'ETHUSDT'],
    strategies: options.strategies ?? ['momentum', 'mean_reversion'],
    title: options.title ?? `Generated run, seed ${options.seed}`,
    settings: { seed: String(options.seed), cycles: String(options.cycles) },
  });
  for (const e of syntheticRun(options)) {
    if (e.type === 'cycle') recorder.cycle(e.obs);
    else if (e.type === 'trade') recorder.trade(e.trade);
    else recorder.denial(e.guard);
  }
  return { summary: recorder.finish({ partial: options.partial }), files: recorder.files };
}
