// `tcs strategy new NAME` (issue 19): writes a strategy and its test that load and run as written —
// the strategy through the same registry and agent code the trading process uses — refuses a bad
// name or extra arguments with exit 2, and never overwrites a file (exit 1, nothing written).
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { stripVTControlCharacters } from 'node:util';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { analyseAll } from '../../machines/agent.machine.js';
import { barsFromCloses } from '../../src/domain/bars.js';
import { historyPlan } from '../../src/domain/strategy-input.js';
import { PACKAGE_ROOT } from '../../src/runtime/package-root.js';
import { runStrategyCheck } from '../../src/runtime/strategy-check/run-check.js';
import { runStrategyNew } from '../../src/runtime/strategy-new.js';
import { loadStrategies } from '../../src/strategies/registry.js';
import { BTC, collector, marketView, snapshot } from '../machines/support.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-strategy-new-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function quietly<T>(fn: () => T): { result: T; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a) => void err.push(a.join(' ')));
  try {
    return { result: fn(), out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe('tcs strategy new', () => {
  it('writes a strategy that loads, declares its history and signals through the agent code', async () => {
    const { result, out } = quietly(() => runStrategyNew(['breakout_one'], root));
    expect(result).toBe(0);
    expect(out).toContain('wrote ./strategies/breakout_one.ts and ./strategies/breakout_one.test.ts');
    expect(out).toContain('from the breakout template (guessed from "breakout" in the NAME');
    const file = join(root, 'strategies', 'breakout_one.ts');
    expect(readFileSync(join(root, 'strategies', 'breakout_one.test.ts'), 'utf8')).toContain("describe('breakout_one'");
    const [agent] = await loadStrategies(
      './strategies/breakout_one.ts',
      { './strategies/breakout_one.ts': { channel: 3, timeframe: '1m' } },
      { cwd: root },
    );
    expect(agent).toMatchObject({ name: 'breakout_one', lookback: 4, timeframe: '1m' });
    const plan = historyPlan(agent!, 60_000);
    const up = snapshot('BTCUSDT', 110, { bars: barsFromCloses([100, 101, 100, 110]) });
    const reply = analyseAll(
      agent!,
      [BTC],
      { type: 'agent.analyse', cycle: 1, market: marketView(up), replyTo: collector().ref },
      plan,
    );
    expect(reply).toMatchObject({
      errors: [],
      invalid: [],
      signals: [{ agent: 'breakout_one', symbol: 'BTCUSDT', direction: 1 }],
    });
    expect(existsSync(file)).toBe(true);
  });

  it('prints a test command that runs the written test, for a directory outside the package with a space in it', () => {
    // Run from the package (where npx finds vitest), it printed `npx vitest run ./../../tmp/…/with
    // space/a_1.test.ts`: unquoted, and the package's vitest.config.ts runs only strategies/ and
    // test/, so even quoted it found "No test files found".
    const dir = join(root, 'with space');
    const { result, out } = quietly(() => runStrategyNew(['a_1', '--dir', dir], PACKAGE_ROOT));
    expect(result).toBe(0);
    const command = /next: (.*?) {3}then: STRATEGIES=(.*) npm start/.exec(out);
    expect(command?.[1]).toBe(`npx vitest run --root '${dir}' a_1.test.ts`);
    expect(command?.[2]).toBe(`'${join(dir, 'a_1.ts')}'`);
    const run = spawnSync('sh', ['-c', command![1]!], { cwd: PACKAGE_ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(stripVTControlCharacters(run.stdout + run.stderr)).toMatch(/Tests +5 passed \(5\)/);
    expect(run.status).toBe(0);
  });

  it('writes a strategy and a test that import only from the public entry, and says how it resolves outside the package', () => {
    // They imported five internal paths (../src/domain/signal.js, …), which move with the code.
    const dir = join(root, 'public');
    const { result, out } = quietly(() => runStrategyNew(['only_public', '--dir', dir], root));
    expect(result).toBe(0);
    const specifiers = (file: string) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(new Set(specifiers('only_public.ts'))).toEqual(new Set(['trading-control-service/strategy']));
    expect(new Set(specifiers('only_public.test.ts'))).toEqual(
      new Set(['vitest', 'trading-control-service/strategy', './only_public.js']),
    );
    // Outside the package nothing resolves that name: a link in DIR/node_modules (what npm link makes).
    expect(realpathSync(join(dir, 'node_modules', 'trading-control-service'))).toBe(realpathSync(PACKAGE_ROOT));
    expect(out).toContain('node_modules/trading-control-service');
    // And the strategy type-checks against the entry's types from there (strict, as a user's project).
    const compilerOptions = {
      module: 'NodeNext',
      target: 'ES2023',
      lib: ['ES2023'],
      types: [],
      strict: true,
      noEmit: true,
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['only_public.ts'] }));
    const tsc = spawnSync(
      process.execPath,
      [join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
  });

  it('links nothing where the name already resolves (under the package itself)', () => {
    // A directory of its own under the package (outside strategies/ and test/, which the suite runs).
    const dir = mkdtempSync(join(PACKAGE_ROOT, '.tmp-strategy-new-'));
    try {
      const { result } = quietly(() => runStrategyNew(['inside', '--dir', dir], root));
      expect(result).toBe(0);
      expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never overwrites: exit 1 and nothing written', () => {
    const dir = join(root, 'mine');
    quietly(() => runStrategyNew(['kept', '--dir', dir], root));
    writeFileSync(join(dir, 'kept.ts'), '// my edits\n');
    const { result, err } = quietly(() => runStrategyNew(['kept', '--dir', dir], root));
    expect(result).toBe(1);
    expect(err).toMatch(/already exist/);
    expect(readFileSync(join(dir, 'kept.ts'), 'utf8')).toBe('// my edits\n');
  });

  it('writes each --kind into a project outside the repository: the loader loads it, it declares its indicators, and its own test passes as written', () => {
    // A directory of its own (no package.json above it in the temp dir): the command writes one.
    const dir = join(root, 'kinds');
    const kinds = { breakout: 'k_breakout', 'mean-reversion': 'k_revert', crossover: 'k_cross' } as const;
    for (const [kind, name] of Object.entries(kinds)) {
      const { result, out } = quietly(() => runStrategyNew([name, '--kind', kind, '--dir', dir], root));
      expect(result).toBe(0);
      expect(out).toContain(`from the ${kind} template (--kind)`);
      const source = readFileSync(join(dir, `${name}.ts`), 'utf8');
      expect(source).toContain(`from the ${kind} template`);
      // The declared-indicators tracker, its lookback, and only the public entry.
      expect(source).toMatch(/trackIndicators\(/);
      expect(source).toMatch(/lookback: indicators\.lookback/);
      const specifiers = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
      expect(new Set(specifiers)).toEqual(new Set(['trading-control-service/strategy']));
    }
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toMatchObject({ type: 'module' });
    const run = spawnSync('npx', ['vitest', 'run', '--root', dir], {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(stripVTControlCharacters(run.stdout + run.stderr)).toMatch(/Test Files +3 passed \(3\)/);
    expect(run.status).toBe(0);
    // And each strategy type-checks against the entry's types (strict, as a user's project).
    const compilerOptions = {
      module: 'NodeNext',
      target: 'ES2023',
      lib: ['ES2023'],
      types: [],
      strict: true,
      noEmit: true,
    };
    const files = Object.values(kinds).map((name) => `${name}.ts`);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
    const tsc = spawnSync(
      process.execPath,
      [join(PACKAGE_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
  }, 120_000);

  it.each([
    ['breakout', 'k_breakout', ['channel']],
    ['mean-reversion', 'k_revert', ['period', 'oversold', 'overbought', 'exitLevel']],
    ['crossover', 'k_cross', ['fast', 'slow']],
  ] as const)(
    'the %s template loads through the registry with its parameters declared and checked',
    async (_kind, name, params) => {
      const entry = `./kinds/${name}.ts`;
      const [agent] = await loadStrategies(entry, {}, { cwd: root });
      expect(agent!.name).toBe(name);
      expect(agent!.parameters).toEqual(expect.arrayContaining([...params, 'timeframe', 'confidence']));
      // Enough history that the tracker's smoothed values no longer depend on where they started.
      expect(agent!.lookback).toBeGreaterThan(20);
      await expect(loadStrategies(entry, { [entry]: { [params[0]]: -1 } }, { cwd: root })).rejects.toThrow(
        new RegExp(params[0]),
      );
    },
  );

  it('writes strategies in which tcs strategy check finds no bias, their declared indicators compared', async () => {
    // The files the test above wrote, on the sample data's one-minute bars.
    const entries = ['k_breakout', 'k_revert', 'k_cross'].map((name) => join(root, 'kinds', `${name}.ts`));
    const params = Object.fromEntries(entries.map((entry) => [entry, { timeframe: '1m' }]));
    const result = await runStrategyCheck(
      { STRATEGY_PARAMS: JSON.stringify(params) },
      {
        entries,
        data: join(PACKAGE_ROOT, 'data', 'sample'),
        cycles: null,
        seed: null,
        from: null,
        to: null,
        symbols: null,
        samples: 4,
        sampleSeed: 1,
        tolerance: 1e-4,
        json: true,
      },
    );
    for (const s of result.strategies) {
      expect({ name: s.name, verdicts: s.findings.map((f) => `${f.check} ${f.verdict}`) }).toEqual({
        name: s.name,
        verdicts: ['determinism ok', 'look-ahead ok', 'recursion ok', 'indicators ok'],
      });
      expect(s.signals, s.name).toBeGreaterThan(100);
    }
    expect(result.bias).toBe(false);
  }, 120_000);

  it.each([
    ['rsi_revert', 'mean-reversion', 'rsi'],
    ['bollinger_mean', 'mean-reversion', 'mean'],
    ['ma_cross', 'crossover', 'cross'],
    ['ema_trend', 'crossover', 'ema'],
  ])('guesses the template of %s from its name (%s), and says so and how to pick another', (name, kind, word) => {
    const { result, out } = quietly(() => runStrategyNew([name, '--dir', join(root, 'guessed')], root));
    expect(result).toBe(0);
    expect(out).toContain(`from the ${kind} template (guessed from "${word}" in the NAME; --kind `);
    expect(readFileSync(join(root, 'guessed', `${name}.ts`), 'utf8')).toContain(`from the ${kind} template`);
  });

  it('uses the breakout template for a name that says nothing, and says how to pick another', () => {
    const { result, out } = quietly(() => runStrategyNew(['edge', '--dir', join(root, 'plain')], root));
    expect(result).toBe(0);
    expect(out).toContain('from the breakout template (the default; --kind mean-reversion or --kind crossover');
  });

  it('refuses an unknown --kind with exit 2, naming the kinds, and writes nothing', () => {
    const { result, err } = quietly(() =>
      runStrategyNew(['x', '--kind', 'momentum', '--dir', join(root, 'none')], root),
    );
    expect(result).toBe(2);
    expect(err).toContain('--kind must be one of breakout, mean-reversion, crossover');
    expect(existsSync(join(root, 'none'))).toBe(false);
  });

  it.each([[[]], [['Bad-Name']], [['two', 'names']], [['x', '--nope']]])(
    'refuses %o with exit 2 and the usage',
    (args) => {
      const { result, err } = quietly(() => runStrategyNew(args, root));
      expect(result).toBe(2);
      expect(err).toMatch(/tcs strategy new/);
    },
  );
});
