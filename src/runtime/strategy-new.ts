/**
 * `tcs strategy new NAME`: writes a commented strategy you can start from, and a test for it, into
 * `strategies/` (or --dir). The template is a factory with validated parameters that declares its
 * history and reads the snapshot fields docs/strategies/writing-a-strategy.md documents, so the first thing a user edits already
 * runs: `STRATEGIES=./strategies/NAME.ts npm start`. Existing files are never overwritten.
 * There is one template (a breakout), whatever the NAME: its header says so rather than implying
 * that `rsi_revert` got an RSI rule. Outside a "type": "module" package it also writes a
 * package.json saying so, else the module loads as CommonJS and the loader cannot find its export.
 * Both files import only from the public entry, `trading-control-service/strategy` (package
 * `exports`); where that name does not resolve from DIR (outside the package, no install), a link
 * DIR/node_modules/trading-control-service -> the package is made, as `npm link` would.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from './package-root.js';
import { STRATEGY_NEW_HELP } from './strategy-help.js';

const NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** This package's name (package.json): the written files import `${PACKAGE_NAME}/strategy`. */
const PACKAGE_NAME = 'trading-control-service';
const ENTRY = `${PACKAGE_NAME}/strategy`;

/** Exit code: 0 written, 1 a file exists, 2 bad usage. */
export function runStrategyNew(args: string[], cwd = process.cwd()): number {
  let values: { dir?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { dir: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    console.error(`tcs strategy new: ${(err as Error).message}\n\n${STRATEGY_NEW_HELP}`);
    return 2;
  }
  const [name, ...extra] = positionals;
  if (name === undefined || extra.length > 0) {
    console.error(`tcs strategy new: ${name === undefined ? 'missing NAME' : 'one NAME only'}\n\n${STRATEGY_NEW_HELP}`);
    return 2;
  }
  if (!NAME.test(name)) {
    console.error(
      `tcs strategy new: NAME ${JSON.stringify(name)} must be lower case letters, digits and underscores, starting with a letter (e.g. mean_reversion)`,
    );
    return 2;
  }
  const dir = resolve(cwd, values.dir ?? 'strategies');
  const source = join(dir, `${name}.ts`);
  const test = join(dir, `${name}.test.ts`);
  const taken = [source, test].filter((f) => existsSync(f));
  if (taken.length > 0) {
    console.error(
      `tcs strategy new: ${taken.join(' and ')} already exist${taken.length === 1 ? 's' : ''}; nothing written`,
    );
    return 1;
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(source, strategyTemplate(name, asTyped(cwd, source)), { flag: 'wx' });
  writeFileSync(test, testTemplate(name), { flag: 'wx' });
  const moduleScope = ensureModuleScope(dir);
  const linked = ensureEntryResolves(dir);
  console.log(
    `wrote ${shown(cwd, source)} and ${shown(cwd, test)}${moduleScope === 'written' ? ` and ${shown(cwd, join(dir, 'package.json'))} ("type": "module", so they load as ES modules)` : ''} from the breakout template`,
  );
  if (linked)
    console.log(
      `linked ${shown(cwd, join(dir, 'node_modules', PACKAGE_NAME))} -> ${PACKAGE_ROOT}, so their import of ${ENTRY} resolves here`,
    );
  if (moduleScope === 'commonjs')
    console.error(
      `tcs strategy new: ${shown(cwd, join(dir, 'package.json'))} does not say "type": "module", so ${name}.ts would load as CommonJS and be refused: add "type": "module" there, or rename the files .mts`,
    );
  console.log(`next: ${testCommand(cwd, dir, test, name)}   then: STRATEGIES=${shown(cwd, source)} npm start`);
  return 0;
}

/** A path as typed at a shell in `cwd`: relative when inside it, quoted when it has spaces or quotes. */
function shown(cwd: string, file: string): string {
  const path = asTyped(cwd, file);
  return /^[\w./@:+-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The STRATEGIES entry for `file` from `cwd`: ./relative when inside it, else absolute. */
function asTyped(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : `./${rel.split(sep).join('/')}`;
}

/**
 * Node (and tsx) load a .ts/.js file as CommonJS unless the nearest package.json above it says
 * "type": "module". Written: there was none in `dir` and the nearest one (if any) did not say it;
 * commonjs: `dir` has its own package.json without it (the user's, never rewritten).
 */
function ensureModuleScope(dir: string): 'already' | 'written' | 'commonjs' {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, 'package.json');
    if (existsSync(file)) {
      if (packageType(file) === 'module') return 'already';
      if (at === dir) return 'commonjs';
      break;
    }
    if (dirname(at) === at) break;
  }
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n', { flag: 'wx' });
  return 'written';
}

function packageType(file: string): unknown {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { type?: unknown }).type;
  } catch {
    return undefined; // unreadable or not JSON: Node would not read a type from it either
  }
}

/**
 * The command that runs the written test. The package's vitest.config.ts runs strategies/ and test/
 * only (a file named elsewhere is "No test files found"); a directory outside the package has no
 * config of its own, so vitest's defaults there run it with --root.
 */
function testCommand(cwd: string, dir: string, test: string, name: string): string {
  const inPackage = relative(PACKAGE_ROOT, test);
  if (/^(strategies|test)[\\/]/.test(inPackage)) return `npx vitest run ${shown(cwd, test)}`;
  if (inPackage.startsWith('..') || isAbsolute(inPackage))
    return `npx vitest run --root ${shown(cwd, dir)} ${name}.test.ts`;
  return `move both files under strategies/ (the test run covers strategies/ and test/ only) and npx vitest run them`;
}

/**
 * Makes `trading-control-service/strategy` resolve from `dir`: under the package it already does
 * (Node resolves a package's own name through its `exports`), and where the package is installed;
 * elsewhere a symlink in DIR/node_modules, the layout `npm link` makes. True when it linked.
 */
function ensureEntryResolves(dir: string): boolean {
  try {
    createRequire(join(dir, 'resolve-from.js')).resolve(`${PACKAGE_NAME}/package.json`);
    return false;
  } catch {
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    // 'junction': a directory link Windows makes without privileges; ignored elsewhere.
    symlinkSync(PACKAGE_ROOT, join(dir, 'node_modules', PACKAGE_NAME), 'junction');
    return true;
  }
}

function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function strategyTemplate(name: string, entry: string): string {
  const factory = `create${camel(name).replace(/^./, (c) => c.toUpperCase())}`;
  const quoted = /^[\w./@:+-]+$/.test(entry) ? entry : `'${entry.replace(/'/g, `'\\''`)}'`;
  return `/**
 * ${name}: written by \`tcs strategy new\` from the breakout template (its one template, whatever the NAME):
 * it goes long when the last close is above the highest high of the \`lookback\` bars before it,
 * short below the lowest low, and otherwise holds its target (null = no opinion: the position is
 * kept). Replace the rule in analyse with your own; edit freely.
 *
 * Run it from the directory \`tcs strategy new\` ran in (paths are relative to where you start):
 *   tcs simulate --strategies ${quoted} --cycles 5000
 *   STRATEGIES=${quoted} npm start
 * with parameters in STRATEGY_PARAMS, e.g. ${JSON.stringify({ [entry]: { lookback: 30 } })} (keyed by the
 * STRATEGIES entry). A parameter name not in \`parameters\` below is refused, naming the nearest one.
 * Everything comes from ${ENTRY}, the public entry (types, indicators, helpers).
 */
import type { Instrument, Signal, StrategyAgent, StrategyFactory, StrategySnapshot } from '${ENTRY}';
import { requireNumber, resolveParams } from '${ENTRY}';

export interface Params {
  /** Bars the breakout range spans (whole number ≥ 2). */
  lookback: number;
  /** Candles to read: the feed's own (1m) or a coarser timeframe (5m, 15m, 1h, 4h, 1d …). */
  timeframe: string;
  /** Confidence of a breakout: the share of the risk budget (RISK_FRACTION × NAV) it asks for, in (0, 1]. */
  confidence: number;
}

const DEFAULTS: Params = { lookback: 20, timeframe: '15m', confidence: 0.5 };

const ${factory}: StrategyFactory<Params> = (given = {}) => {
  // Merged over the defaults; a name not in DEFAULTS throws, naming the nearest known one.
  const p = resolveParams('${name}', DEFAULTS, given);
  // Validate what configuration gave: a bad value fails at start, naming the parameter.
  requireNumber('${name}', 'lookback', p.lookback, (n) => Number.isInteger(n) && n >= 2, 'a whole number ≥ 2');
  requireNumber('${name}', 'confidence', p.confidence, (n) => n > 0 && n <= 1, 'in (0, 1]');
  const agent: StrategyAgent = {
    name: '${name}',
    // The trading process fills this much history before the first cycle (one bar more: the range
    // is of the bars before the last one) and never calls analyse with less.
    lookback: p.lookback + 1,
    timeframe: p.timeframe,
    // The names STRATEGY_PARAMS may give: a misspelt one fails at start instead of running the default.
    parameters: Object.keys(DEFAULTS),
    analyse(s: StrategySnapshot, instrument: Instrument): Signal | null {
      // s.higher: the declared timeframe's completed candles (null when it is the feed's own);
      // s.candles: the feed's candles. Both are typed arrays, oldest first, the last bar just closed:
      // time (open, epoch ms), open, high, low, close, volume (base units).
      const bars = s.higher ?? s.candles;
      const n = bars.length;
      const last = bars.close[n - 1]!;
      let high = -Infinity;
      let low = Infinity;
      for (let i = n - 1 - p.lookback; i < n - 1; i++) {
        high = Math.max(high, bars.high[i]!);
        low = Math.min(low, bars.low[i]!);
      }
      // Also at hand: s.position (this agent's own position in the symbol, signed base units),
      // s.nav (the account's NAV, USDT), s.fundingRate (per interval; null for spot),
      // s.bid / s.ask / s.bids / s.asks (the book), s.last, s.volume, instrument.kind ('perp' | 'spot').
      const direction = last > high ? 1 : last < low ? -1 : 0;
      if (direction === 0) return null; // inside the range: hold whatever is held
      if (direction < 0 && instrument.kind === 'spot' && s.position <= 0) return null; // spot cannot go short
      return {
        agent: '${name}', // must be this agent's name, and symbol the snapshot's: else INVALID_SIGNAL
        symbol: s.symbol,
        direction, // 1 long, -1 short, 0 flat (close what this agent holds)
        confidence: p.confidence,
        rationale: \`close \${last} \${direction > 0 ? 'above' : 'below'} the \${p.lookback}-bar range [\${low}, \${high}]\`,
      };
    },
  };
  return agent;
};

export default ${factory};
`;
}

function testTemplate(name: string): string {
  return `// ${name}: a breakout above the range goes long, below it short, inside it says nothing.
import { describe, expect, it } from 'vitest';
import type { Instrument } from '${ENTRY}';
import { barsFromRows, testSnapshot } from '${ENTRY}';
import create from './${name}.js';

const PERP: Instrument = { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };

/** What analyse receives for these closes (each bar's high/low one above/below its close). */
function snapshot(closes: number[]) {
  const bars = barsFromRows(
    closes.map((close, i) => ({ time: i * 60_000, open: close, high: close + 1, low: close - 1, close, volume: 1 })),
  );
  return testSnapshot(bars, { symbol: 'BTCUSDT', fundingRate: 0.0001, position: 0, nav: 10_000 });
}

describe('${name}', () => {
  const agent = create({ lookback: 3, timeframe: '1m' });

  it('declares the history it reads', () => {
    expect(agent).toMatchObject({ name: '${name}', lookback: 4, timeframe: '1m' });
  });

  it('goes long above the range, short below it, and says nothing inside it', () => {
    expect(agent.analyse(snapshot([100, 101, 100, 105]), PERP)).toMatchObject({ direction: 1, symbol: 'BTCUSDT' });
    expect(agent.analyse(snapshot([100, 101, 100, 95]), PERP)).toMatchObject({ direction: -1 });
    expect(agent.analyse(snapshot([100, 101, 100, 100.5]), PERP)).toBeNull();
  });

  it('refuses a bad parameter', () => {
    expect(() => create({ lookback: 1 })).toThrow(/lookback/);
  });
});
`;
}
