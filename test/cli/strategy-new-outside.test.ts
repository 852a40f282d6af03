/**
 * `tcs strategy new` as a user runs it, in a temporary directory outside the repository (issue 34
 * item 4): the path its header and its "then" line give is the one it wrote (`./rsi_revert.ts` was
 * promised for a file under ./strategies/), the header says which template it is (guessed from the name),
 * and what it writes — under ./strategies/ or --dir — loads in `tcs simulate` there: it was loaded as
 * CommonJS (no "type": "module" anywhere up the tree) and refused as "must default-export a
 * StrategyAgent" although it does. A module that really is CommonJS is refused naming that cause.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-strategy-new-cli-'));
const path = (...parts: string[]) => join(root, ...parts);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function tcs(args: string[], env: NodeJS.ProcessEnv = {}) {
  const proc = startTcs(args, env, root);
  const { code } = await exitWithin(proc, 90_000);
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

const simulate = (strategy: string, out: string) =>
  tcs(['simulate', '--strategies', strategy, '--symbols', 'BTCUSDT', '--cycles', '30', '--out', path(out)]);

describe('tcs strategy new, outside the repository', () => {
  it('names the path it wrote, says which template it is, and the strategy runs in tcs simulate', async () => {
    const made = await tcs(['strategy', 'new', 'rsi_revert']);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('STRATEGIES=./strategies/rsi_revert.ts');
    const source = readFileSync(path('strategies', 'rsi_revert.ts'), 'utf8');
    expect(source).toContain('STRATEGIES=./strategies/rsi_revert.ts');
    expect(source).not.toContain('STRATEGIES=./rsi_revert.ts');
    // The template the name asks for, and the command says it guessed and how to pick another.
    expect(source).toContain('from the mean-reversion template');
    expect(made.stdout).toContain('guessed from "rsi" in the NAME; --kind breakout or --kind crossover writes another');
    const run = await simulate('./strategies/rsi_revert.ts', 'sim-default');
    expect(run.stderr).not.toMatch(/must default-export/);
    expect(run.code).toBe(0);
  });

  it('--dir elsewhere writes what makes the module load as ES, and it runs', async () => {
    const made = await tcs(['strategy', 'new', 'edge', '--dir', path('mine')]);
    expect(made.code).toBe(0);
    expect(JSON.parse(readFileSync(path('mine', 'package.json'), 'utf8'))).toMatchObject({ type: 'module' });
    const run = await simulate('./mine/edge.ts', 'sim-dir');
    expect(run.stderr).not.toMatch(/must default-export|CommonJS|cannot import/);
    expect(run.code).toBe(0);
  });

  it('a module loaded as CommonJS is refused naming that cause and the way out', async () => {
    mkdirSync(path('cjs'));
    writeFileSync(path('cjs', 'package.json'), '{"type": "commonjs"}\n');
    writeFileSync(path('cjs', 'flat.ts'), "export default { name: 'flat', analyse: () => null };\n");
    const run = await simulate('./cjs/flat.ts', 'sim-cjs');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/loaded as CommonJS/);
    expect(run.stderr).toMatch(/"type": "module"/);
    expect(run.stderr).toMatch(/\.mts/);
  });
});
