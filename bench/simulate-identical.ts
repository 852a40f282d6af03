/**
 * Byte-identity check for speed work on `tcs simulate` (issue 34, item 8): a change that makes the
 * loop cheaper must not change what a run writes. Runs fixed simulations with the compiled CLI and
 * records (or checks) the sha256 of trades.csv, summary.json, equity.csv and round-trips.csv:
 *
 *   node bin/run-ts.mjs bench/simulate-identical.ts record /tmp/sim-digests.json   # before the change
 *   node bin/run-ts.mjs bench/simulate-identical.ts check /tmp/sim-digests.json    # after: exit 1 on any difference
 *
 * The runs: the backtrader comparison's SMA replay (3 symbols, bench/backtrader/generate-data.ts, the
 * bench's environment, --cycles 20000 unless SIM_IDENTICAL_CYCLES says otherwise) and the synthetic
 * market with the built-in strategies (seed 7, 3,000 cycles), which exercise more of the arbiter,
 * the allocator and the risk engine. Not a benchmark and not in `npm test` (each run is a process of
 * several seconds); the digests depend on the data and configuration, so they are recorded per
 * machine, before a change, rather than committed.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateBars } from './backtrader/generate-data.js';
import { SMA_RUN_ENV } from './backtrader/run-env.js';
import { REPO_ROOT } from './support.js';

const FILES = ['trades.csv', 'summary.json', 'equity.csv', 'round-trips.csv'] as const;
const SMA_CYCLES = process.env.SIM_IDENTICAL_CYCLES ?? '20000';

type Digests = Record<string, Record<string, string>>;

function simulate(args: string[], env: Record<string, string>, out: string): Record<string, string> {
  execFileSync(process.execPath, [join(REPO_ROOT, 'bin/tcs.mjs'), 'simulate', ...args, '--out', out, '--quiet'], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return Object.fromEntries(
    FILES.map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(out, f)))
        .digest('hex'),
    ]),
  );
}

function digests(work: string): Digests {
  const data = generateBars(work);
  const strategy = join(REPO_ROOT, 'bench/backtrader/sma-cross.ts');
  return {
    sma: simulate(
      ['--data', data.tcs, '--strategies', strategy, '--cycles', SMA_CYCLES],
      SMA_RUN_ENV,
      join(work, 'sma'),
    ),
    synthetic: simulate(
      ['--cycles', '3000', '--seed', '7', '--symbols', 'BTCUSDT,ETHUSDT,SOLUSDT'],
      {},
      join(work, 'synthetic'),
    ),
  };
}

function main(): number {
  const [mode, file] = process.argv.slice(2);
  if ((mode !== 'record' && mode !== 'check') || !file) {
    console.error('Usage: simulate-identical.ts record|check <digests.json>');
    return 2;
  }
  execFileSync(process.execPath, [join(REPO_ROOT, 'bin/build.mjs'), '--if-stale'], { stdio: 'inherit' });
  const work = mkdtempSync(join(tmpdir(), 'tcs-identical-'));
  try {
    const now = digests(work);
    if (mode === 'record') {
      writeFileSync(file, `${JSON.stringify(now, null, 2)}\n`);
      console.log(`recorded ${file}`);
      return 0;
    }
    const before = JSON.parse(readFileSync(file, 'utf8')) as Digests;
    let differ = 0;
    for (const [run, files] of Object.entries(before))
      for (const [name, digest] of Object.entries(files)) {
        const same = now[run]?.[name] === digest;
        if (!same) differ++;
        console.log(`${same ? 'same  ' : 'DIFFER'} ${run}/${name}`);
      }
    return differ === 0 ? 0 : 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = main();
