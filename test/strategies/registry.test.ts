// The STRATEGIES loader: built-in names, user modules by path (TypeScript and JavaScript), params,
// and the errors an operator would see for typos and broken modules, including a .ts strategy on a
// compiled install where tsx cannot be found.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  BUILTIN_STRATEGY_NAMES,
  DEFAULT_STRATEGIES,
  isModulePath,
  loadStrategies,
} from '../../src/strategies/registry.js';
import { PERP, snapshot } from './snapshot.js';

const FIXTURES = 'test/fixtures/strategies';

describe('loadStrategies', () => {
  it('exports the built-in names and the default spec', () => {
    expect(BUILTIN_STRATEGY_NAMES).toEqual([
      'momentum_ma_crossover',
      'funding_rate_contrarian',
      'rsi_mean_reversion',
      'donchian_atr_breakout',
      'bollinger_mean_reversion',
    ]);
    // A new built-in is opt-in: the default stays what it was, so default runs do not change.
    expect(DEFAULT_STRATEGIES).toBe('momentum_ma_crossover,funding_rate_contrarian');
  });

  it('loads rsi_mean_reversion by name, with its parameters checked', async () => {
    const [agent] = await loadStrategies('rsi_mean_reversion', { rsi_mean_reversion: { period: 7 } });
    expect(agent).toMatchObject({ name: 'rsi_mean_reversion', lookback: 8, timeframe: '15m' });
    await expect(loadStrategies('rsi_mean_reversion', { rsi_mean_reversion: { perod: 7 } })).rejects.toThrow(
      /did you mean period/,
    );
  });

  it('loads donchian_atr_breakout and bollinger_mean_reversion by name, with their parameters checked', async () => {
    const agents = await loadStrategies('donchian_atr_breakout,bollinger_mean_reversion', {
      donchian_atr_breakout: { channel: 55, timeframe: '1h' },
      bollinger_mean_reversion: { period: 30 },
    });
    expect(agents[0]).toMatchObject({ name: 'donchian_atr_breakout', timeframe: '1h' });
    expect(agents[1]).toMatchObject({ name: 'bollinger_mean_reversion', lookback: 31, timeframe: '15m' });
    await expect(
      loadStrategies('bollinger_mean_reversion', { bollinger_mean_reversion: { deviation: 2 } }),
    ).rejects.toThrow(/did you mean deviations/);
  });

  it('loads the default built-ins in order', async () => {
    const agents = await loadStrategies(DEFAULT_STRATEGIES);
    expect(agents.map((a) => a.name)).toEqual(['momentum_ma_crossover', 'funding_rate_contrarian']);
  });

  it('tolerates spaces and empty entries', async () => {
    const agents = await loadStrategies(' funding_rate_contrarian , ,');
    expect(agents.map((a) => a.name)).toEqual(['funding_rate_contrarian']);
  });

  it('passes params to built-ins by name', async () => {
    const [agent] = await loadStrategies('funding_rate_contrarian', {
      funding_rate_contrarian: { threshold: 0.0001, fullConfidenceRate: 0.0002 },
    });
    expect(agent?.analyse(snapshot([100], { fundingRate: 0.0002 }), PERP)).toMatchObject({
      direction: -1,
      confidence: 1,
    });
  });

  it('reports a bad built-in param', async () => {
    await expect(loadStrategies('momentum_ma_crossover', { momentum_ma_crossover: { fast: 40 } })).rejects.toThrow(
      /momentum_ma_crossover: parameter "slow"/,
    );
  });

  it('suggests the parameter a misspelt built-in parameter most likely meant', async () => {
    await expect(loadStrategies('momentum_ma_crossover', { momentum_ma_crossover: { fats: 5 } })).rejects.toThrow(
      'momentum_ma_crossover: unknown parameter "fats" (did you mean fast?; known: fast, slow,',
    );
  });

  it('built-ins declare their parameter names (what a sweep and STRATEGY_PARAMS are checked against)', async () => {
    const [momentum, funding] = await loadStrategies(DEFAULT_STRATEGIES);
    expect(momentum?.parameters).toContain('spreadForFullConfidence');
    expect(funding?.parameters).toContain('threshold');
  });

  it('refuses an unknown name and lists the known ones', async () => {
    await expect(loadStrategies('momentum_ma_crossover,mean_reversion')).rejects.toThrow(
      'STRATEGIES entry "mean_reversion" is not a known strategy (known: momentum_ma_crossover, funding_rate_contrarian, rsi_mean_reversion, donchian_atr_breakout, bollinger_mean_reversion)',
    );
  });

  it('suggests the built-in an unknown name most likely meant (hyphens, case, a typo), never accepting it', async () => {
    await expect(loadStrategies('momentum-ma-crossover')).rejects.toThrow(
      'STRATEGIES entry "momentum-ma-crossover" is not a known strategy (did you mean momentum_ma_crossover?) (known: ',
    );
    await expect(loadStrategies('Funding-Rate-Contrarian')).rejects.toThrow(/did you mean funding_rate_contrarian\?/);
    await expect(loadStrategies('momentum_ma_crosover')).rejects.toThrow(/did you mean momentum_ma_crossover\?/);
    await expect(loadStrategies('mean_reversion')).rejects.toThrow(/not a known strategy \(known: /);
  });

  it('refuses an empty spec', async () => {
    await expect(loadStrategies(' , ')).rejects.toThrow(/STRATEGIES is empty/);
  });

  it('refuses duplicate agent names', async () => {
    await expect(loadStrategies('funding_rate_contrarian,funding_rate_contrarian')).rejects.toThrow(/already loaded/);
  });

  describe('user modules', () => {
    it('loads a TypeScript factory by path relative to the working directory, with params', async () => {
      const agents = await loadStrategies(`momentum_ma_crossover,./${FIXTURES}/always-long.ts`, {
        [`./${FIXTURES}/always-long.ts`]: { confidence: 0.7 },
      });
      expect(agents.map((a) => a.name)).toEqual(['momentum_ma_crossover', 'always_long']);
      expect(agents[1]?.analyse(snapshot([100]), PERP)).toEqual({
        agent: 'always_long',
        symbol: 'BTCUSDT',
        direction: 1,
        confidence: 0.7,
      });
    });

    it('resolves from the given cwd', async () => {
      const agents = await loadStrategies(
        './always-long.ts,./plain-agent.js',
        {},
        { cwd: `${process.cwd()}/${FIXTURES}` },
      );
      expect(agents.map((a) => a.name)).toEqual(['always_long', 'plain_js_agent']);
    });

    it('loads by absolute path', async () => {
      const agents = await loadStrategies(`${process.cwd()}/${FIXTURES}/plain-agent.js`);
      expect(agents[0]?.name).toBe('plain_js_agent');
    });

    it('names a missing file', async () => {
      await expect(loadStrategies('./nope/missing-strategy.ts')).rejects.toThrow(
        /STRATEGIES entry "\.\/nope\/missing-strategy\.ts": cannot import .*missing-strategy\.ts/,
      );
    });

    it('refuses a module that exports no agent', async () => {
      await expect(loadStrategies(`./${FIXTURES}/not-an-agent.ts`)).rejects.toThrow(
        /must default-export a StrategyAgent/,
      );
    });

    it('names the entry when its factory throws', async () => {
      await expect(loadStrategies(`./${FIXTURES}/throwing-factory.ts`)).rejects.toThrow(
        /throwing-factory\.ts": the factory threw: threshold must be positive/,
      );
    });

    it('refuses a parameter name a module does not declare, naming the nearest (its factory would ignore it)', async () => {
      const entry = `./${FIXTURES}/declared-params.ts`;
      const [agent] = await loadStrategies(entry, { [entry]: { period: 20, confidence: 0.7 } });
      expect(agent?.parameters).toEqual(['period', 'confidence', 'malformed']);
      await expect(loadStrategies(entry, { [entry]: { perod: 20 } })).rejects.toThrow(
        `STRATEGY_PARAMS for "${entry}": unknown parameter "perod" (did you mean period?; known: period, confidence, malformed)`,
      );
      await expect(loadStrategies(entry, { [entry]: { malformed: true } })).rejects.toThrow(
        /"parameters" must be a list of parameter names/,
      );
      // Declaring none: nothing to check names against, so the factory alone decides (as before).
      const always = `./${FIXTURES}/always-long.ts`;
      await expect(loadStrategies(always, { [always]: { confidnce: 0.7 } })).resolves.toHaveLength(1);
    });

    it('refuses params for a module that exports an agent rather than a factory', async () => {
      await expect(
        loadStrategies(`./${FIXTURES}/plain-agent.js`, { [`./${FIXTURES}/plain-agent.js`]: { x: 1 } }),
      ).rejects.toThrow(/not a factory/);
    });
  });

  describe('compiled (dist/), with no tsx to be found', () => {
    // A copy of the compiled sources in a temp dir, away from the repository's node_modules: what a
    // compiled install without tsx looks like to the registry. Its one package import, the
    // indicators' trading-signals (a production dependency), is linked in beside it.
    function inIsolatedCopy(strategyFile: string, source: string): { ok: boolean; output: string } {
      const dir = mkdtempSync(join(tmpdir(), 'tcs-no-tsx-'));
      try {
        cpSync(fileURLToPath(new URL('../../dist/src', import.meta.url)), join(dir, 'dist/src'), { recursive: true });
        writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
        mkdirSync(join(dir, 'node_modules'));
        symlinkSync(
          fileURLToPath(new URL('../../node_modules/trading-signals', import.meta.url)),
          join(dir, 'node_modules', 'trading-signals'),
          'dir',
        );
        writeFileSync(join(dir, strategyFile), source);
        const script = `import { loadStrategies } from './dist/src/strategies/registry.js';
          loadStrategies('./${strategyFile}').then(
            (agents) => console.log('loaded ' + agents.map((a) => a.name).join()),
            (err) => { console.log(err.message); process.exit(1); });`;
        writeFileSync(join(dir, 'load.mjs'), script);
        try {
          return { ok: true, output: execFileSync(process.execPath, ['load.mjs'], { cwd: dir, encoding: 'utf8' }) };
        } catch (err) {
          return { ok: false, output: String((err as { stdout?: string }).stdout) };
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }

    it('loads a .js strategy (the copy itself works)', () => {
      expect(inIsolatedCopy('mine.js', "export default { name: 'mine', analyse: () => null };")).toEqual({
        ok: true,
        output: 'loaded mine\n',
      });
    });

    it('refuses a .ts strategy with a clear message naming tsx', () => {
      const result = inIsolatedCopy('mine.ts', "export default { name: 'mine', analyse: () => null };");
      expect(result.ok).toBe(false);
      expect(result.output).toMatch(
        /^STRATEGIES entry "\.\/mine\.ts": .*mine\.ts is TypeScript, which needs the tsx package to load, and tsx cannot be imported \(.*\); install the production dependencies .* or compile the strategy to \.js\n$/,
      );
    });
  });

  it.each([
    ['./x.ts', true],
    ['../x.js', true],
    ['/abs/x', true],
    ['strategies/x.mjs', true],
    ['momentum_ma_crossover', false],
  ])('isModulePath(%s) = %s', (entry, expected) => {
    expect(isModulePath(entry)).toBe(expected);
  });
});

describe('the built-ins on the public entry, imported when named', () => {
  it('load under their modules’ own names, with their parameters checked', async () => {
    const { DONCHIAN_ATR_BREAKOUT } = await import('../../src/strategies/donchian-atr-breakout.js');
    const { BOLLINGER_MEAN_REVERSION } = await import('../../src/strategies/bollinger-mean-reversion.js');
    const { RSI_MEAN_REVERSION } = await import('../../src/strategies/rsi-mean-reversion.js');
    const agents = await loadStrategies(`${DONCHIAN_ATR_BREAKOUT},${BOLLINGER_MEAN_REVERSION},${RSI_MEAN_REVERSION}`, {
      [DONCHIAN_ATR_BREAKOUT]: { channel: 10 },
    });
    expect(agents.map((a) => a.name)).toEqual([DONCHIAN_ATR_BREAKOUT, BOLLINGER_MEAN_REVERSION, RSI_MEAN_REVERSION]);
    await expect(loadStrategies(DONCHIAN_ATR_BREAKOUT, { [DONCHIAN_ATR_BREAKOUT]: { chanel: 10 } })).rejects.toThrow(
      /chanel/,
    );
  });
});
