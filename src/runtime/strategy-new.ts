/**
 * `tcs strategy new NAME`: writes a commented strategy you can start from, and a test for it, into
 * `strategies/` (or --dir). The template is a factory with validated parameters that declares its
 * history and reads the snapshot fields docs/strategies/writing-a-strategy.md documents, so the first thing a user edits already
 * runs: `STRATEGIES=./strategies/NAME.ts npm start`. Existing files are never overwritten.
 * Three templates (strategy-templates/): a breakout, a mean reversion and a crossover, each on
 * indicators declared through trackIndicators; --kind picks one, else a plain word of the NAME does
 * (`rsi_revert`: mean-reversion) and the command says which it used and how to pick another, else
 * the breakout. Outside a "type": "module" package it also writes a
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
import { breakoutSource, breakoutTest } from './strategy-templates/breakout.js';
import { crossoverSource, crossoverTest } from './strategy-templates/crossover.js';
import { ENTRY, PACKAGE_NAME } from './strategy-templates/header.js';
import { guessKind, isStrategyKind, STRATEGY_KINDS } from './strategy-templates/kinds.js';
import type { StrategyKind } from './strategy-templates/kinds.js';
import { meanReversionSource, meanReversionTest } from './strategy-templates/mean-reversion.js';

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

const TEMPLATES: Record<StrategyKind, { source(name: string, entry: string): string; test(name: string): string }> = {
  breakout: { source: breakoutSource, test: breakoutTest },
  'mean-reversion': { source: meanReversionSource, test: meanReversionTest },
  crossover: { source: crossoverSource, test: crossoverTest },
};

/** Exit code: 0 written, 1 a file exists, 2 bad usage. */
export function runStrategyNew(args: string[], cwd = process.cwd()): number {
  let values: { dir?: string; kind?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { dir: { type: 'string' }, kind: { type: 'string' } },
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
  if (values.kind !== undefined && !isStrategyKind(values.kind)) {
    console.error(
      `tcs strategy new: --kind must be one of ${STRATEGY_KINDS.join(', ')}, got ${JSON.stringify(values.kind)}`,
    );
    return 2;
  }
  const { kind, why } = chooseKind(name, values.kind);
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
  writeFileSync(source, TEMPLATES[kind].source(name, asTyped(cwd, source)), { flag: 'wx' });
  writeFileSync(test, TEMPLATES[kind].test(name), { flag: 'wx' });
  const moduleScope = ensureModuleScope(dir);
  const linked = ensureEntryResolves(dir);
  console.log(
    `wrote ${shown(cwd, source)} and ${shown(cwd, test)}${moduleScope === 'written' ? ` and ${shown(cwd, join(dir, 'package.json'))} ("type": "module", so they load as ES modules)` : ''} from the ${kind} template (${why})`,
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

/** The template: --kind, else the NAME's word for one, else the breakout; `why` says which, and how to pick another. */
function chooseKind(name: string, given: StrategyKind | undefined): { kind: StrategyKind; why: string } {
  if (given !== undefined) return { kind: given, why: '--kind' };
  const others = (kind: StrategyKind) =>
    STRATEGY_KINDS.filter((k) => k !== kind)
      .map((k) => `--kind ${k}`)
      .join(' or ');
  const guess = guessKind(name);
  if (guess === null) return { kind: 'breakout', why: `the default; ${others('breakout')} writes another` };
  return { kind: guess.kind, why: `guessed from "${guess.word}" in the NAME; ${others(guess.kind)} writes another` };
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
