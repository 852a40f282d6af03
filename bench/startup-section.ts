/**
 * Writes the "Compiled runtime: before/after" section of BENCHMARKS.md from ONE run of the start-up
 * benchmark (startup.bench.ts) and the memory benchmark (memory.bench.ts, compiled and tsx children),
 * leaving the rest of the file as it is: the section is replaced when present, appended otherwise.
 * `npm run bench` runs both too (as numbered sections) when it regenerates the whole file.
 * Usage: `node bin/run-ts.mjs bench/startup-section.ts`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { markdownTable } from './stats.js';
import { REPO_ROOT, machine, markSuite, waitForQuiet } from './support.js';
import type { BenchResult, Quietness } from './support.js';

markSuite();

const HEADING = '## Compiled runtime: before/after';
const COMMAND = 'node bin/run-ts.mjs bench/startup-section.ts';

/** The commit measured, and any uncommitted changes outside bench/ (as run-all reports it). */
function revision(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const commit = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no')
      .split('\n')
      .map((line) => line.slice(3))
      .filter((path) => path !== '' && !path.startsWith('bench/') && path !== 'BENCHMARKS.md');
    return dirty.length === 0
      ? `commit ${commit}, no uncommitted changes outside bench/`
      : `commit ${commit} with uncommitted changes to ${dirty.join(', ')}`;
  } catch {
    return 'git revision unknown';
  }
}

async function measure(file: string): Promise<{ result: BenchResult; quiet: Quietness }> {
  const quiet = await waitForQuiet();
  console.log(`\n>> ${file} (machine ${(quiet.busyBefore * 100).toFixed(0)} % busy before)`);
  const module = (await import(`./${file}`)) as { run: () => Promise<BenchResult> };
  return { result: await module.run(), quiet };
}

function render(startedAt: Date, parts: Array<{ result: BenchResult; quiet: Quietness }>): string {
  const host = machine();
  const out: string[] = [HEADING, ''];
  out.push(
    `Produced by \`${COMMAND}\`, started ${startedAt.toISOString()}; code measured: ${revision()}. ` +
      `Machine: ${host.nproc} × ${host.cpu}, ${host.memory}, Node ${host.node}, ${host.platform}. ` +
      'All figures in this section come from that one run (the benchmarks one after the other), separate from the numbered sections above; nothing is asserted. ' +
      '"Before" is the same code run as TypeScript through tsx, as `tcs` ran before the build; "after" is the compiled dist/ with source maps on.',
    '',
  );
  const aims = parts.flatMap(({ result }) =>
    result.aims.map((aim) => [
      result.id,
      aim.text,
      aim.met === null ? 'not measured' : aim.met ? 'met' : '**not met**',
    ]),
  );
  out.push(markdownTable({ headers: ['benchmark', 'aim (measured)', 'result'], rows: aims }), '');
  for (const { result, quiet } of parts) {
    out.push(`### ${result.title}`, '');
    out.push(
      `- Alone: \`${result.command}\`; here step ${parts.findIndex((p) => p.result === result) + 1} of ${parts.length}, ${result.seconds.toFixed(0)} s.`,
      `- Machine just before: ${(quiet.busyBefore * 100).toFixed(0)} % CPU busy (other processes)${quiet.waitedS > 2 ? ` after waiting ${quiet.waitedS} s` : ''}, load average ${quiet.load1.toFixed(2)}.`,
      '',
      'Method:',
      '',
    );
    for (const line of result.method) out.push(`- ${line}`);
    out.push('');
    for (const table of result.tables) {
      if (table.caption) out.push(`*${table.caption}*`, '');
      out.push(markdownTable(table), '');
    }
    if (result.notes.length > 0) {
      out.push('Notes:', '');
      for (const note of result.notes) out.push(`- ${note}`);
      out.push('');
    }
  }
  return out.join('\n').trimEnd();
}

/** BENCHMARKS.md with the section replaced (up to the next `## ` heading) or appended. */
function withSection(current: string, section: string): string {
  const start = current.indexOf(`${HEADING}\n`);
  if (start === -1) return `${current.trimEnd()}\n\n${section}\n`;
  const next = current.indexOf('\n## ', start + HEADING.length);
  const rest = next === -1 ? '' : current.slice(next + 1);
  return `${current.slice(0, start)}${section}\n${rest ? `\n${rest}` : ''}`;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const parts = [await measure('startup.bench.ts'), await measure('memory.bench.ts')];
  const path = join(REPO_ROOT, 'BENCHMARKS.md');
  writeFileSync(path, withSection(readFileSync(path, 'utf8'), render(startedAt, parts)));
  // The repository's Prettier check covers BENCHMARKS.md (it pads the tables).
  const prettier = createRequire(import.meta.url).resolve('prettier/bin/prettier.cjs');
  execFileSync(process.execPath, [prettier, '--write', path], { stdio: 'inherit' });
  console.log(`\nwrote the "${HEADING.slice(3)}" section of ${path}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
