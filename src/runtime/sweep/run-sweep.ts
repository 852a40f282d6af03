/**
 * `tcs sweep`: reads and checks the spec, makes its trials, runs them on the chosen executor (the
 * local pool or the BullMQ queue), then — with walk-forward — each fold's in-sample best on its
 * out-of-sample window, and writes the ranked results (with walk-forward, the stitched out-of-sample
 * equity and the walk-forward efficiency too). Results are keyed by trial id, so each
 * trial's row is written once whatever the executor delivered.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readSweepSpec } from './sweep-spec.js';
import type { SweepSpec } from './sweep-spec.js';
import { axes, firstTrials, outOfSampleTrials, paramSets } from './sweep-trials.js';
import type { ParamSet, Trial } from './sweep-trials.js';
import { checkTrials } from './sweep-check.js';
import { createLocalPool } from './local-pool.js';
import { createQueueCoordinator } from './queue-coordinator.js';
import { bestLines, rankRows, writeResults } from './sweep-results.js';
import { createSweepProgress } from './sweep-progress.js';
import type { SweepOptions } from './sweep-options.js';
import type { TrialExecutor } from './trial-executor.js';
import type { TrialResult } from './trial-runner.js';
import { sweepInterrupt } from './sweep-interrupt.js';
import { assertFoldsInData } from './walk-forward-data.js';
import { walkForwardLines, walkForwardReport, writeStitchedEquity } from './walk-forward-report.js';

export async function runSweep(options: SweepOptions): Promise<number> {
  const spec = readSweepSpec(options.spec);
  const sets = paramSets(spec);
  const first = firstTrials(spec, sets);
  // Out-of-sample windows are checked too (with any set), before a single trial runs.
  const notes = await checkTrials([
    ...first,
    ...outOfSampleTrials(
      spec,
      spec.walkForward.map(() => sets[0]!),
    ),
  ]);
  await assertFoldsInData(spec);
  for (const note of notes) process.stderr.write(`tcs sweep: note: ${note}\n`);
  mkdirSync(options.out, { recursive: true });
  const executor: TrialExecutor =
    options.queue === null
      ? createLocalPool(options.workers, join(options.out, 'trials'))
      : createQueueCoordinator(options.queue);
  const total = first.length + spec.walkForward.length;
  const progress = options.quiet ? null : createSweepProgress(total);
  const results = new Map<string, TrialResult>();
  const started = performance.now();
  const record = (result: TrialResult) => {
    results.set(result.id, result);
    progress?.update(results.size);
  };
  const stop = sweepInterrupt();
  const trials: Trial[] = [];
  try {
    progress?.update(0);
    if ((await stop.race(executor.run(first, record))) !== 'interrupted') {
      trials.push(...first);
      if (spec.walkForward.length > 0) {
        const outOfSample = outOfSampleTrials(spec, inSampleBest(spec, first, results));
        if ((await stop.race(executor.run(outOfSample, record))) !== 'interrupted') trials.push(...outOfSample);
        else trials.push(...outOfSample.filter((trial) => results.has(trial.id)));
      }
    } else trials.push(...first.filter((trial) => results.has(trial.id)));
  } finally {
    progress?.finish();
    await executor.close();
    stop.dispose();
  }
  const rows = rankRows(trials, results, spec.objective);
  const walkForward =
    spec.walkForward.length === 0
      ? null
      : walkForwardReport(rows, spec.walkForward.length, spec.walkForwardPlan, spec.objective);
  if (walkForward !== null) writeStitchedEquity(options.out, walkForward.stitched);
  writeResults(options.out, rows, [...axes(spec).keys()], spec.objective, {
    reportLinks: options.queue === null,
    walkForward: walkForward?.report ?? null,
    walkForwardEquity: walkForward?.stitched.rows,
  });
  for (const line of bestLines(rows, spec.objective)) process.stdout.write(`${line}\n`);
  if (walkForward !== null)
    for (const line of walkForwardLines(walkForward.report, options.out)) process.stdout.write(`${line}\n`);
  if (stop.requested) {
    process.stderr.write(
      `tcs sweep: interrupted: ${results.size} of ${total} trials done; their results are in ${join(options.out, 'results.csv')} and results.html\n`,
    );
    return 130;
  }
  if (!options.quiet) {
    const seconds = (performance.now() - started) / 1000;
    const where = options.queue === null ? `${options.workers} local worker(s)` : `the queue at ${options.queue.url}`;
    process.stderr.write(
      `tcs sweep: ${trials.length} trials in ${seconds.toFixed(1)} s on ${where}; results in ${join(options.out, 'results.csv')} and results.html\n`,
    );
  }
  return 0;
}

/** Each fold's best parameter set on its in-sample window. */
function inSampleBest(
  spec: SweepSpec,
  inSample: readonly Trial[],
  results: ReadonlyMap<string, TrialResult>,
): ParamSet[] {
  const ranked = rankRows(inSample, results, spec.objective);
  return spec.walkForward.map((_, f) => {
    const best = ranked.find((row) => row.fold === f + 1 && row.rank === 1)!;
    return { id: best.paramSet, params: best.params };
  });
}
