/**
 * Runs every benchmark once, in sequence, each under a deadline, then updates BENCHMARKS.md's table
 * (one row per figure, keyed by the figure: the rows of the figures measured are replaced, the rest
 * kept with their own dates) and appends the whole run — method, tables, notes, the machine's
 * load — to docs/develop/benchmarks-history.md. Before each benchmark it waits (bounded) for the
 * machine to be mostly idle and records what it saw. Nothing is asserted: a failed or hung
 * benchmark is written down as such in the history, its rows keep their last value, and the rest
 * still run.
 * Usage: `npm run bench` (= node bin/run-ts.mjs bench/run-all.ts)
 *        `npm run bench -- --only live-kill.bench.ts,transition.bench.ts`  some of them
 *        `npm run bench -- --check`  check the table's rows, run nothing
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { figureTableProblems, mergeFigureRows, parseFiguresTable, withFiguresTable } from './figures-table.js';
import type { FigureRow } from './figures-table.js';
import { markdownTable } from './stats.js';
import { REPO_ROOT, cpuBusy, machine, markSuite, redisVersion, waitForQuiet, withDeadline } from './support.js';
import type { BenchResult, Quietness } from './support.js';

markSuite();

interface Entry {
  file: string;
  /** Upper bound for the whole benchmark; past it, it is reported as hung. */
  deadlineMs: number;
}

const BENCHMARKS: Entry[] = [
  { file: 'api-status.bench.ts', deadlineMs: 240_000 },
  { file: 'stream-clients.bench.ts', deadlineMs: 180_000 },
  { file: 'console-latency.bench.ts', deadlineMs: 180_000 },
  { file: 'transition.bench.ts', deadlineMs: 300_000 },
  // Four phases (two stores × idle, status load), each with a 180 s budget.
  { file: 'kill-latency.bench.ts', deadlineMs: 900_000 },
  // 3 trials per store of 3,000 queued flattens ahead of the kill's cancels (about 1 min here).
  { file: 'kill-behind-queue.bench.ts', deadlineMs: 300_000 },
  { file: 'health-outage.bench.ts', deadlineMs: 180_000 },
  // A real tcs notify, 40 notices × 3 scenarios (about 1 min here).
  { file: 'notify-latency.bench.ts', deadlineMs: 300_000 },
  // 20,000 entries of ~3 KB appended, archived and trimmed first (most of its time), then the pages.
  { file: 'decisions-archive.bench.ts', deadlineMs: 300_000 },
  // 200 rounds of cancel-all on the live venue against the fake exchange (about 30 s here).
  { file: 'live-kill.bench.ts', deadlineMs: 180_000 },
  // 7 kills with flatten through real `tcs start` processes, up to 2 min each (about 3 min here).
  { file: 'live-kill-flatten.bench.ts', deadlineMs: 900_000 },
  { file: 'cycle-cost.bench.ts', deadlineMs: 300_000 },
  // 4 cycles of 60 s, three cases at once (about 3.5 min).
  { file: 'live-weight.bench.ts', deadlineMs: 420_000 },
  // Two children now (compiled, then tsx), each with a 5-minute budget.
  { file: 'memory.bench.ts', deadlineMs: 780_000 },
  { file: 'startup.bench.ts', deadlineMs: 900_000 },
  // 20,000 cycles × 2 cases, then 500,000 cycles for the memory samples (about 8 min here).
  { file: 'simulate-throughput.bench.ts', deadlineMs: 1_200_000 },
  { file: 'simulation-report.bench.ts', deadlineMs: 300_000 },
  // `tcs simulate --cycles 100000` with the default configuration (about 1 min here).
  { file: 'default-turnover.ts', deadlineMs: 600_000 },
  // `tcs sweep` of 16 trials × 3 cases (about 2–4 min here).
  { file: 'sweep.bench.ts', deadlineMs: 900_000 },
  // 3 interleaved pairs of tcs simulate and backtrader on 3 × 60,480 bars (about 4–5 min here);
  // measures nothing unless BACKTRADER_DIR names backtrader's source tree.
  { file: 'backtrader-compare.bench.ts', deadlineMs: 1_200_000 },
  // Two `tcs start` systems for AUDIT_BENCH_MINUTES (default 20) with `tcs audit archive` beside them.
  { file: 'audit-retention-start.bench.ts', deadlineMs: 1_800_000 },
  // A year of 60 s cycles (525,600) into Redis and SQLite at once, archived, then verified (about 35 min here).
  { file: 'audit-retention-cycles.bench.ts', deadlineMs: 3_600_000 },
];

const TABLE_FILE = join(REPO_ROOT, 'BENCHMARKS.md');
const HISTORY_FILE = join(REPO_ROOT, 'docs/develop/benchmarks-history.md');

interface Outcome {
  entry: Entry;
  quiet: Quietness;
  /** CPU busy share over 2 s right after it finished (other processes still running?). */
  busyAfter: number;
  result: BenchResult | null;
  error: string | null;
  seconds: number;
}

interface Revision {
  /** Short commit, or 'unknown'. */
  commit: string;
  /** Files changed outside bench/ and the benchmark documents: the code measured is not the commit's. */
  dirty: string[];
}

function check(): void {
  const { rows } = parseFiguresTable(readFileSync(TABLE_FILE, 'utf8'));
  const problems = figureTableProblems(rows, REPO_ROOT);
  if (problems.length > 0) {
    console.error(`BENCHMARKS.md: ${problems.length} problem(s):\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`BENCHMARKS.md: ${rows.length} figures, every row well-formed and its command's script present`);
}

async function main(args: string[]): Promise<void> {
  if (args.includes('--check')) return check();
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',').filter(Boolean) : null;
  const unknown = (only ?? []).filter((file) => !BENCHMARKS.some((entry) => entry.file === file));
  if (unknown.length > 0) throw new Error(`--only: no benchmark ${unknown.join(', ')} in run-all's list`);
  const entries = only ? BENCHMARKS.filter((entry) => only.includes(entry.file)) : BENCHMARKS;
  // Fail before an hour of benchmarks, not after, if the table cannot be updated.
  parseFiguresTable(readFileSync(TABLE_FILE, 'utf8'));

  const startedAt = new Date();
  const host = machine();
  const redis = await redisVersion().catch((err: unknown) => `unreachable (${(err as Error).message})`);
  const outcomes: Outcome[] = [];
  for (const entry of entries) {
    const quiet = await waitForQuiet();
    console.log(
      `\n>> ${entry.file} (machine ${(quiet.busyBefore * 100).toFixed(0)} % busy before, waited ${quiet.waitedS} s)`,
    );
    const t0 = performance.now();
    let result: BenchResult | null = null;
    let error: string | null = null;
    try {
      const module = (await import(`./${entry.file}`)) as { run: () => Promise<BenchResult> };
      result = await withDeadline(module.run(), entry.deadlineMs, entry.file);
    } catch (err) {
      console.error(`${entry.file} failed:`, err);
      error = String((err as Error).stack ?? err);
    }
    const seconds = (performance.now() - t0) / 1000;
    outcomes.push({ entry, quiet, busyAfter: await cpuBusy(), result, error, seconds });
  }
  const rev = revision();
  const suiteCommand = only ? `npm run bench -- --only ${only.join(',')}` : 'npm run bench';

  const current = parseFiguresTable(readFileSync(TABLE_FILE, 'utf8')).rows;
  const measured = outcomes.flatMap((o) => figureRows(o, host, startedAt, rev));
  writeFileSync(TABLE_FILE, withFiguresTable(readFileSync(TABLE_FILE, 'utf8'), mergeFigureRows(current, measured)));
  appendFileSync(HISTORY_FILE, `\n${renderRun(suiteCommand, startedAt, host, redis, rev, outcomes)}`);
  const failed = outcomes.filter((o) => !o.result).map((o) => o.entry.file);
  console.log(`\nupdated ${measured.length} figure(s) in ${TABLE_FILE}; the whole run appended to ${HISTORY_FILE}`);
  if (failed.length > 0) console.log(`did not finish (their rows keep their last value): ${failed.join(', ')}`);
}

/** The rows one finished benchmark gives the table. */
function figureRows(o: Outcome, host: ReturnType<typeof machine>, startedAt: Date, rev: Revision): FigureRow[] {
  if (!o.result) return [];
  const machineText =
    `${host.nproc} × ${host.cpu}, ${host.memory}, Node ${host.node}; ` + `load ${o.quiet.load1.toFixed(1)} before`;
  const date =
    `${startedAt.toISOString().slice(0, 10)} (${rev.commit}` +
    `${rev.dirty.length > 0 ? ' with uncommitted changes' : ''})`;
  return o.result.figures.map((f) => ({
    figure: f.figure,
    aim: f.aim,
    latest: `${f.latest}${f.met === true ? ' — met' : f.met === false ? ' — **not met**' : ''}`,
    command: `\`${o.result!.command}\``,
    machine: machineText,
    date,
  }));
}

/** The commit measured, and any uncommitted changes outside bench/ (the system under test may differ from the commit). */
function revision(): Revision {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' });
    const commit = git('rev-parse', '--short', 'HEAD').trim();
    // Not trimmed: each porcelain line starts with two status columns and a space.
    const dirty = git('status', '--porcelain', '--untracked-files=no')
      .split('\n')
      .map((line) => line.slice(3))
      .filter(
        (path) =>
          path !== '' &&
          !path.startsWith('bench/') &&
          path !== 'BENCHMARKS.md' &&
          path !== 'docs/develop/benchmarks-history.md',
      );
    return { commit, dirty };
  } catch {
    return { commit: 'unknown', dirty: [] };
  }
}

/** The whole run as one section of the history: what the table's rows came from, and how. */
function renderRun(
  suiteCommand: string,
  startedAt: Date,
  host: ReturnType<typeof machine>,
  redis: string,
  rev: Revision,
  outcomes: Outcome[],
): string {
  const out: string[] = [];
  out.push(`## \`${suiteCommand}\`, ${startedAt.toISOString()}`, '');
  out.push(
    `All figures below come from that ONE run; nothing is asserted. Each benchmark can also be run alone with the command given in its section (a separate run, so its figures would differ).`,
    '',
    `Code measured: commit ${rev.commit}${rev.dirty.length === 0 ? ', no uncommitted changes outside bench/' : ` with uncommitted changes to ${rev.dirty.join(', ')}`}.`,
    '',
  );
  out.push('### Machine', '');
  out.push(
    markdownTable({
      headers: ['nproc', 'CPU', 'memory', 'node', 'platform', 'Redis (127.0.0.1:6379, db 15)'],
      rows: [[String(host.nproc), host.cpu, host.memory, host.node, host.platform, redis]],
    }),
    '',
  );
  const aimRows: string[][] = [];
  for (const o of outcomes) {
    if (!o.result) {
      aimRows.push([o.entry.file, 'benchmark did not finish', 'not measured']);
      continue;
    }
    for (const aim of o.result.aims)
      aimRows.push([o.entry.file, aim.text, aim.met === null ? 'not measured' : aim.met ? 'met' : '**not met**']);
  }
  if (aimRows.length > 0)
    out.push('### Aims', '', markdownTable({ headers: ['benchmark', 'aim (measured)', 'result'], rows: aimRows }), '');

  outcomes.forEach((o, i) => {
    const title = o.result?.title ?? o.entry.file;
    out.push(`### ${i + 1}. ${title}`, '');
    out.push(`- Produced by: \`${suiteCommand}\`, step ${i + 1} of ${outcomes.length}, in ${o.seconds.toFixed(1)} s.`);
    out.push(`- Alone: \`${o.result?.command ?? `node bin/run-ts.mjs bench/${o.entry.file}`}\``);
    out.push(
      `- Machine just before: ${(o.quiet.busyBefore * 100).toFixed(0)} % CPU busy (all cores, other processes)` +
        `${o.quiet.waitedS > 2 ? ` after waiting ${o.quiet.waitedS} s for it to quieten` : ''}, load average (1 min) ${o.quiet.load1.toFixed(2)}; ` +
        `${(o.busyAfter * 100).toFixed(0)} % busy just after it.`,
    );
    if (!o.result) {
      out.push('', `**Failed or hung:**`, '', '```', o.error ?? 'unknown error', '```', '');
      return;
    }
    out.push('', 'Method:', '');
    for (const line of o.result.method) out.push(`- ${line}`);
    out.push('');
    for (const table of o.result.tables) {
      if (table.caption) out.push(`_${table.caption}_`, '');
      out.push(markdownTable(table), '');
    }
    if (o.result.notes.length > 0) {
      out.push('Notes:', '');
      for (const note of o.result.notes) out.push(`- ${note}`);
      out.push('');
    }
  });
  return `${out.join('\n').trimEnd()}\n`;
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
