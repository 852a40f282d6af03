/**
 * The public strategy entry (`trading-control-service/strategy`, issue 34 item 5) as a user's own
 * project sees it: a temporary directory outside the repository with its own package.json, the
 * package linked into its node_modules (what `npm install file:…` makes). A module there imports
 * every export, TypeScript checks it against the entry's types, and a strategy written against the
 * entry alone runs in `tcs simulate`. The lists below are compared with the entry's real exports, so
 * an export added without a line here fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { exitWithin, startNode, startTcs } from '../support/processes.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY_SOURCE = join(REPO, 'src', 'strategies', 'public.ts');

/** Every value the entry exports, and every type. */
const VALUES = [
  'SEED_WEIGHT',
  'barsFromCloses',
  'barsFromRows',
  'clamp',
  'requireNumber',
  'resolveParams',
  'rsi',
  'sma',
  'ta',
  'testSnapshot',
  'trackIndicators',
];
const TYPES = [
  'Band',
  'Bar',
  'Bars',
  'BookLevel',
  'IndicatorInput',
  'IndicatorReadings',
  'IndicatorSpec',
  'IndicatorSpecs',
  'IndicatorTracker',
  'IndicatorValues',
  'Instrument',
  'InstrumentKind',
  'Macd',
  'Signal',
  'SignalTarget',
  'StrategyAgent',
  'StrategyFactory',
  'StrategySnapshot',
  'TestSnapshotOptions',
];

const root = mkdtempSync(join(tmpdir(), 'tcs-public-entry-'));
const path = (...parts: string[]) => join(root, ...parts);
afterAll(() => rmSync(root, { recursive: true, force: true }));

writeFileSync(
  path('package.json'),
  JSON.stringify({
    name: 'my-strategies',
    private: true,
    type: 'module',
    dependencies: { 'trading-control-service': `file:${REPO}` },
  }),
);
mkdirSync(path('node_modules'));
symlinkSync(REPO, path('node_modules', 'trading-control-service'), 'dir');
writeFileSync(
  path('tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      target: 'ES2023',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    },
    include: ['*.ts'],
  }),
);

// Uses every export, values and types: TypeScript checks the types, tcs simulate runs the values.
writeFileSync(
  path('every-export.ts'),
  `import type { ${TYPES.join(', ')} } from 'trading-control-service/strategy';
import { ${VALUES.join(', ')} } from 'trading-control-service/strategy';

/** Throws unless each value export does what its doc comment says. */
export function selfCheck(agent: StrategyAgent): void {
  const rows: Bar[] = [1, 2, 3, 4].map((close, i) => ({ time: i * 60_000, open: close, high: close, low: close, close, volume: 1 }));
  const bars: Bars = barsFromRows(rows);
  const same: Bars = barsFromCloses([1, 2, 3, 4]);
  if (sma(bars.close, 4) !== 2.5 || sma(same.close, 5) !== null || clamp(Number.NaN, 0, 1) !== 0) throw new Error('indicators');
  if (rsi(bars.close, 3) !== 100 || rsi(bars.close, 4) !== null) throw new Error('rsi');
  const level: BookLevel = { price: 1, qty: 1 };
  const kind: InstrumentKind = 'perp';
  const instrument: Instrument = { symbol: 'BTCUSDT', kind, lotSize: 0.001, tickSize: 0.1, minNotional: 5 };
  const options: TestSnapshotOptions = { position: 0, nav: 1_000 };
  const snapshot: StrategySnapshot = testSnapshot(bars, options);
  if (snapshot.last !== 4 || snapshot.candles.length !== 4 || level.qty !== 1) throw new Error('testSnapshot');
  const signal: Signal | null = agent.analyse(snapshot, instrument);
  if (signal !== null && signal.agent !== agent.name) throw new Error('signal');
  if (resolveParams('x', { a: 1 }, { a: 2 }).a !== 2 || requireNumber('x', 'a', 3, (n) => n > 0, '> 0') !== 3)
    throw new Error('parameters');
  const factory: StrategyFactory<{ a: number }> = () => agent;
  if (factory().name !== agent.name) throw new Error('factory');
  const specs: IndicatorSpecs = { fast: ta.sma(2), band: ta.bollinger(2, 2), trend: ta.macd(2, 3, 2) };
  const spec: IndicatorSpec<number> = ta.ema(2);
  const tracker: IndicatorTracker<{ ema: IndicatorSpec<number>; atr: IndicatorSpec<number>; dc: IndicatorSpec<Band> }> =
    trackIndicators({ ema: spec, atr: ta.atr(2), dc: ta.donchian(2) });
  const input: IndicatorInput = snapshot;
  const readings: IndicatorReadings<{ ema: IndicatorSpec<number>; atr: IndicatorSpec<number>; dc: IndicatorSpec<Band> }> | null = tracker.update(input);
  const values: IndicatorValues<{ rsi: IndicatorSpec<number> }> | undefined = trackIndicators({ rsi: ta.rsi(2) }).update(snapshot)?.now;
  if (readings === null || readings.now.dc.upper !== 4 || readings.now.ema <= 3 || values === undefined) throw new Error('trackIndicators');
  const line: Macd | null = trackIndicators({ m: ta.macd(2, 3, 2) }).update(snapshot)?.now.m ?? null;
  if (Object.keys(specs).length !== 3 || line === null || !(SEED_WEIGHT > 0) || tracker.lookback < 3) throw new Error('ta');
}
`,
);

// A strategy written against the entry alone: a fast/slow SMA crossover on the feed's candles.
writeFileSync(
  path('my_sma.ts'),
  `import type { Instrument, Signal, StrategyAgent, StrategyFactory, StrategySnapshot } from 'trading-control-service/strategy';
import { clamp, requireNumber, resolveParams, sma } from 'trading-control-service/strategy';
import { selfCheck } from './every-export.js';

interface Params { fast: number; slow: number }
const DEFAULTS: Params = { fast: 3, slow: 8 };

const create: StrategyFactory<Params> = (given) => {
  const p = resolveParams('my_sma', DEFAULTS, given);
  const slow = requireNumber('my_sma', 'slow', p.slow, (n) => Number.isInteger(n) && n > p.fast, 'a whole number above fast');
  const agent: StrategyAgent = {
    name: 'my_sma',
    lookback: slow,
    parameters: Object.keys(DEFAULTS),
    analyse(s: StrategySnapshot, _instrument: Instrument): Signal | null {
      const fast = sma(s.candles.close, p.fast);
      const slowAvg = sma(s.candles.close, slow);
      if (fast === null || slowAvg === null || fast === slowAvg) return null;
      return { agent: 'my_sma', symbol: s.symbol, direction: fast > slowAvg ? 1 : -1, confidence: clamp(1, 0, 1) };
    },
  };
  return agent;
};

selfCheck(create());
export default create;
`,
);

// The example docs/strategies/writing-a-strategy.md gives under "The public entry", type-checked below.
const DOCS = readFileSync(join(REPO, 'docs', 'strategies', 'writing-a-strategy.md'), 'utf8');
const docsExample = /## The public entry[\s\S]*?```ts\n([\s\S]*?)```/.exec(DOCS)?.[1] ?? '';
writeFileSync(path('docs_example.ts'), docsExample);
// And the one docs/strategies/indicators.md opens with (declared indicators).
const INDICATORS_DOCS = readFileSync(join(REPO, 'docs', 'strategies', 'indicators.md'), 'utf8');
const indicatorsExample = /```ts\n([\s\S]*?)```/.exec(INDICATORS_DOCS)?.[1] ?? '';
writeFileSync(path('docs_indicators_example.ts'), indicatorsExample);

describe('the public strategy entry, from a project outside the repository', () => {
  it("the documentation's examples import only from it", () => {
    for (const example of [docsExample, indicatorsExample]) {
      const specifiers = [...example.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
      expect(specifiers.length).toBeGreaterThan(0);
      expect(new Set(specifiers)).toEqual(new Set(['trading-control-service/strategy']));
    }
  });

  it('exports exactly the values and types listed here', async () => {
    const probe = startNode(
      [
        '--input-type=module',
        '-e',
        "import * as entry from 'trading-control-service/strategy'; console.log(JSON.stringify(Object.keys(entry)))",
      ],
      {},
      root,
    );
    expect((await exitWithin(probe, 30_000)).code).toBe(0);
    expect((JSON.parse(probe.stdout()) as string[]).sort()).toEqual([...VALUES].sort());

    const source = ts.createSourceFile(ENTRY_SOURCE, readFileSync(ENTRY_SOURCE, 'utf8'), ts.ScriptTarget.Latest);
    const types: string[] = [];
    const values: string[] = [];
    for (const statement of source.statements) {
      if (!ts.isExportDeclaration(statement) || statement.exportClause === undefined) continue;
      if (!ts.isNamedExports(statement.exportClause)) continue;
      for (const element of statement.exportClause.elements)
        (statement.isTypeOnly || element.isTypeOnly ? types : values).push(element.name.text);
    }
    expect(types.sort()).toEqual([...TYPES].sort());
    expect(values.sort()).toEqual([...VALUES].sort());
  });

  it('gives every export a doc comment (what an editor shows the author on hover)', () => {
    const program = ts.createProgram([ENTRY_SOURCE], { module: ts.ModuleKind.NodeNext, noEmit: true, types: [] });
    const checker = program.getTypeChecker();
    const entry = checker.getSymbolAtLocation(program.getSourceFile(ENTRY_SOURCE)!)!;
    const exports = checker.getExportsOfModule(entry);
    expect(exports.map((e) => e.name).sort()).toEqual([...VALUES, ...TYPES].sort());
    const undocumented = exports
      .filter(
        (e) => ts.displayPartsToString(checker.getAliasedSymbol(e).getDocumentationComment(checker)).trim() === '',
      )
      .map((e) => e.name);
    expect(undocumented).toEqual([]);
  });

  it("type-checks a module that imports every export, and the documentation's examples", () => {
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', root], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('runs a strategy written against it in tcs simulate', async () => {
    const run = startTcs(
      ['simulate', '--strategies', './my_sma.ts', '--symbols', 'BTCUSDT', '--cycles', '300', '--out', path('sim')],
      {},
      root,
    );
    const { code } = await exitWithin(run, 90_000);
    expect(run.stderr()).not.toMatch(/cannot|Cannot find|Error/);
    expect(code).toBe(0);
    const summary = JSON.parse(readFileSync(path('sim', 'summary.json'), 'utf8')) as Record<string, unknown>;
    expect(summary.fills).toBeGreaterThan(0);
    expect(summary.agent_errors ?? 0).toBe(0);
  });
});
