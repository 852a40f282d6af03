/**
 * Names in a sweep spec and in STRATEGY_PARAMS checked before the first trial (issue 34 item 7):
 * `"RISK_FRACTOIN": [0.05, 0.1]` ran two identical trials and exited 0, and a misspelled parameter
 * of a strategy written by `tcs strategy new` was ignored by the sweep and by `tcs simulate`. Now
 * each is exit 2 naming the unknown name and the nearest known one, and nothing runs. Real `tcs`
 * processes in a temporary directory outside the repository.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-sweep-names-'));
const path = (...parts: string[]) => join(root, ...parts);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function tcs(args: string[]) {
  const proc = startTcs(args, {}, root);
  const { code } = await exitWithin(proc, 90_000);
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

function sweep(name: string, spec: Record<string, unknown>) {
  const file = path(`${name}.json`);
  writeFileSync(file, JSON.stringify({ data: { seed: 1, cycles: 30 }, ...spec }));
  return tcs(['sweep', file, '--out', path(name), '--quiet', '--workers', '1']);
}

const STRATEGY = './strategies/lookback_breakout.ts';

describe('names checked before the first trial', () => {
  beforeAll(async () => {
    expect((await tcs(['strategy', 'new', 'lookback_breakout'])).code).toBe(0);
  });

  it('a misspelled variable in params is exit 2 naming it and the nearest known name, nothing run', async () => {
    const run = await sweep('typo-param', { params: { RISK_FRACTOIN: [0.05, 0.1] } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/params\.RISK_FRACTOIN is not a configuration variable.*did you mean RISK_FRACTION\?/);
    expect(existsSync(path('typo-param'))).toBe(false);
  });

  it('a misspelled variable in env as well', async () => {
    const run = await sweep('typo-env', { params: { RISK_FRACTION: [0.05] }, env: { SYMBLOS: 'BTCUSDT' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/env\.SYMBLOS is not a configuration variable.*did you mean SYMBOLS\?/);
  });

  it('a misspelled strategy parameter in a swept STRATEGY_PARAMS is exit 2 naming it and the nearest', async () => {
    const run = await sweep('typo-strategy', {
      params: { STRATEGY_PARAMS: [{ [STRATEGY]: { channel: 10 } }, { [STRATEGY]: { chanel: 30 } }] },
      env: { STRATEGIES: STRATEGY, SYMBOLS: 'BTCUSDT' },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown parameter "chanel".*did you mean channel\?/);
    expect(existsSync(path('typo-strategy'))).toBe(false);
  });

  it('says so when a strategy given parameters declares none (their names cannot be checked), and runs', async () => {
    mkdirSync(path('plain'));
    writeFileSync(path('plain', 'package.json'), '{"type": "module"}\n');
    writeFileSync(
      path('plain', 'flat.mjs'),
      "export default (params = {}) => ({ name: 'flat', analyse: () => null, _p: params });\n",
    );
    const run = await sweep('undeclared', {
      params: { STRATEGY_PARAMS: [{ './plain/flat.mjs': { anything: 1 } }] },
      env: { STRATEGIES: './plain/flat.mjs', SYMBOLS: 'BTCUSDT' },
    });
    expect(run.stderr).toMatch(
      /\.\/plain\/flat\.mjs declares no parameters, so the names STRATEGY_PARAMS gives it .*are not checked/,
    );
    expect(run.code).toBe(0);
  });

  it('tcs simulate refuses the same misspelled strategy parameter (exit 2)', async () => {
    const proc = startTcs(
      ['simulate', '--strategies', STRATEGY, '--symbols', 'BTCUSDT', '--cycles', '30', '--out', path('sim')],
      { STRATEGY_PARAMS: JSON.stringify({ [STRATEGY]: { confidance: 0.3 } }) },
      root,
    );
    const { code } = await exitWithin(proc, 90_000);
    expect(proc.stderr()).toMatch(/unknown parameter "confidance".*did you mean confidence\?/);
    expect(code).toBe(2);
  });
});
