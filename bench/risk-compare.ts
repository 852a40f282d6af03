/**
 * risk-run before and after: copies the risk-run files into another checkout (e.g. a worktree of the
 * commit before issue 7, whose bench/ lacks them), runs risk-run there and here one after the other
 * (each tree's own code, in its own child process), and prints both side by side as Markdown.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ScenarioResult } from './risk-run.js';
import { report } from './risk-report.js';
import { REPO_ROOT } from './support.js';

const FILES = [
  'bench/risk-run.ts',
  'bench/risk-figures.ts',
  'bench/risk-engine-watch.ts',
  'bench/risk-report.ts',
  'bench/risk-compare.ts',
];

function commitOf(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

async function runIn(dir: string, out: string): Promise<ScenarioResult[]> {
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, ['bin/run-ts.mjs', 'bench/risk-run.ts'], {
      cwd: dir,
      env: { ...process.env, RISK_RUN_OUT: out },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`risk-run in ${dir} exited with ${code}`))));
  });
  return JSON.parse(readFileSync(out, 'utf8')) as ScenarioResult[];
}

export async function compare(otherDir: string): Promise<void> {
  if (!otherDir) throw new Error('usage: risk-run.ts --compare DIR');
  const other = resolve(otherDir);
  if (other !== resolve(REPO_ROOT)) for (const f of FILES) copyFileSync(join(REPO_ROOT, f), join(other, f));
  const tmp = mkdtempSync(join(tmpdir(), 'risk-compare-'));
  try {
    const before = await runIn(other, join(tmp, 'before.json'));
    const after = await runIn(REPO_ROOT, join(tmp, 'after.json'));
    console.log(
      report([
        { label: `before (${commitOf(other)})`, results: before },
        { label: `after (${commitOf(REPO_ROOT)})`, results: after },
      ]),
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
