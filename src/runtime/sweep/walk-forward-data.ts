/**
 * Generated walk-forward folds held against the replay before any trial runs: a last out-of-sample
 * window past the data's last candle would otherwise fail only when its trial runs, after every
 * in-sample trial has been paid for. A data directory the replay cannot read is a ConfigError too,
 * with the reader's own message (the file and line at fault).
 */
import { DataFileError, loadDataDir } from '../../adapters/market-data/file/index.js';
import { ConfigError } from '../config.js';
import type { SweepSpec } from './sweep-spec.js';
import { field } from './spec-fields.js';

export async function assertFoldsInData(spec: SweepSpec): Promise<void> {
  const dir = spec.data.dir;
  const last = spec.walkForward[spec.walkForward.length - 1];
  if (spec.walkForwardPlan === null || dir === null || last === undefined) return;
  const symbols = spec.env.SYMBOLS?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  let data;
  try {
    data = await loadDataDir(dir, symbols !== undefined && symbols.length > 0 ? symbols : undefined);
  } catch (err) {
    if (err instanceof DataFileError) throw new ConfigError(`sweep spec: data.dir ${dir}: ${err.message}`);
    throw err;
  }
  // The replay steps all symbols together: it ends where the first of them ends (its last candle's close).
  const closes = data.symbols.map((s) => ({
    file: s.candleFile,
    end: s.candles.start + s.candles.count * data.stepMs,
  }));
  const first = closes.reduce((a, b) => (b.end < a.end ? b : a));
  const end = last.outOfSample.to!;
  if (end > first.end)
    throw field(
      'walk_forward.folds',
      `run past the data: the last out-of-sample window ends at ${new Date(end).toISOString()}, after the last candle of ${first.file} closes at ${new Date(first.end).toISOString()} (fewer folds or shorter windows)`,
    );
}
