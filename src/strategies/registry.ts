/**
 * Turns the `STRATEGIES` setting into agents. Each comma-separated entry is either a built-in name
 * or a path to a user module (starting with `./`, `../` or `/`, or ending in .ts/.js/.mjs/.mts),
 * resolved from the working directory, whose default export is a StrategyAgent or a factory.
 * This is the one place in the strategy layer allowed I/O: the dynamic import of user modules.
 * A TypeScript module (.ts/.mts) needs a loader when this code runs compiled: tsx is then imported
 * lazily, for that module only, so a service without TypeScript strategies never loads it.
 */
// Before any user module: the genuine constructors are captured here (intrinsics.ts).
import '../domain/intrinsics.js';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createFundingRateContrarian, FUNDING_RATE_CONTRARIAN } from './funding-rate-contrarian.js';
import { createMomentumMaCrossover, MOMENTUM_MA_CROSSOVER } from './momentum-ma-crossover.js';
import { closestName } from './name-hint.js';
import { isStrategyAgent, unknownParameter } from './strategy.js';
import type { StrategyAgent } from './strategy.js';
import type * as TsxApi from 'tsx/esm/api';

/** Parameters per strategy, keyed by the entry exactly as written in STRATEGIES (name or path). */
export type StrategyParamsByEntry = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

export interface LoadStrategiesOptions {
  /** Directory user module paths are resolved from; default `process.cwd()`. */
  cwd?: string;
}

type UntypedFactory = (params?: Readonly<Record<string, unknown>>) => StrategyAgent | Promise<StrategyAgent>;

/**
 * The built-ins written on the public entry (./public.ts, which carries the indicator library,
 * trading-signals) are imported when named, not with this module: `tcs --help` and every command
 * that only reads the configuration load no installed package (test/cli/help-light.test.ts). Their
 * names are here as text; registry.test.ts holds each equal to its module's own constant.
 */
const RSI_MEAN_REVERSION = 'rsi_mean_reversion';
const DONCHIAN_ATR_BREAKOUT = 'donchian_atr_breakout';
const BOLLINGER_MEAN_REVERSION = 'bollinger_mean_reversion';

// The factories validate their params at run time, so handing them an unchecked record is safe.
/** Under tsx or vitest this file is itself TypeScript, so the runtime already loads .ts modules. */
const RUNTIME_LOADS_TYPESCRIPT = import.meta.url.endsWith('.ts');
const TYPESCRIPT_FILE = /\.m?ts$/;

const BUILTINS = {
  [MOMENTUM_MA_CROSSOVER]: (params) => createMomentumMaCrossover(params),
  [FUNDING_RATE_CONTRARIAN]: (params) => createFundingRateContrarian(params),
  [RSI_MEAN_REVERSION]: async (params) => (await import('./rsi-mean-reversion.js')).createRsiMeanReversion(params),
  [DONCHIAN_ATR_BREAKOUT]: async (params) =>
    (await import('./donchian-atr-breakout.js')).createDonchianAtrBreakout(params),
  [BOLLINGER_MEAN_REVERSION]: async (params) =>
    (await import('./bollinger-mean-reversion.js')).createBollingerMeanReversion(params),
} as const satisfies Record<string, UntypedFactory>;

export type BuiltinStrategyName = keyof typeof BUILTINS;

export const BUILTIN_STRATEGY_NAMES: readonly BuiltinStrategyName[] = Object.freeze([
  MOMENTUM_MA_CROSSOVER,
  FUNDING_RATE_CONTRARIAN,
  RSI_MEAN_REVERSION,
  DONCHIAN_ATR_BREAKOUT,
  BOLLINGER_MEAN_REVERSION,
]);

/**
 * The STRATEGIES value used when the variable is unset: the first two built-ins only, so a built-in
 * added later is opt-in and leaves every default run (and its recorded results) as it was.
 */
export const DEFAULT_STRATEGIES = [MOMENTUM_MA_CROSSOVER, FUNDING_RATE_CONTRARIAN].join(',');

export function isBuiltinStrategyName(name: string): name is BuiltinStrategyName {
  return Object.hasOwn(BUILTINS, name);
}

/** True when a STRATEGIES entry names a module file rather than a built-in. */
export function isModulePath(entry: string): boolean {
  return entry.startsWith('./') || entry.startsWith('../') || isAbsolute(entry) || /\.(ts|mts|js|mjs)$/.test(entry);
}

/**
 * Loads the agents listed in `spec`, in order. Throws an Error naming the entry when a name is
 * unknown (listing the built-in names), a module cannot be imported or does not default-export an
 * agent or factory, a factory rejects its params, or two agents share a name (weights and the audit
 * trail key on agent names).
 */
export async function loadStrategies(
  spec: string,
  params: StrategyParamsByEntry = {},
  options: LoadStrategiesOptions = {},
): Promise<StrategyAgent[]> {
  const entries = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (entries.length === 0) {
    throw new Error(
      `STRATEGIES is empty: list at least one of ${BUILTIN_STRATEGY_NAMES.join(', ')} or a module path such as ./my-strategy.ts`,
    );
  }
  // A parameter set for an entry that is not loaded would be silently ignored: a typo must fail.
  const stray = Object.keys(params).filter((key) => !entries.includes(key));
  if (stray.length > 0)
    throw new Error(
      `STRATEGY_PARAMS has parameters for ${stray.map((k) => JSON.stringify(k)).join(', ')}, which ${stray.length === 1 ? 'is' : 'are'} not in STRATEGIES (${entries.join(',')}); keys are STRATEGIES entries exactly as written`,
    );
  const agents: StrategyAgent[] = [];
  for (const entry of entries) {
    const entryParams = params[entry];
    const agent = isModulePath(entry)
      ? await loadModule(entry, entryParams, options.cwd ?? process.cwd())
      : await loadBuiltin(entry, entryParams);
    checkParameterNames(entry, agent, entryParams);
    const clash = agents.find((a) => a.name === agent.name);
    if (clash)
      throw new Error(
        `STRATEGIES entry "${entry}": an agent named "${agent.name}" is already loaded; agent names must be unique`,
      );
    agents.push(agent);
  }
  return agents;
}

/**
 * A parameter name the agent does not declare would be ignored by a factory that spreads its
 * defaults (`{ ...DEFAULTS, ...given }`, as the `tcs strategy new` template did): a typo ran with the
 * default. Agents that declare no `parameters` are not checked (nothing to check against).
 */
function checkParameterNames(
  entry: string,
  agent: StrategyAgent,
  params: Readonly<Record<string, unknown>> | undefined,
): void {
  const declared: unknown = agent.parameters;
  if (declared === undefined) return;
  if (!Array.isArray(declared) || !declared.every((name) => typeof name === 'string'))
    throw new Error(`STRATEGIES entry "${entry}": the agent's "parameters" must be a list of parameter names`);
  for (const key of Object.keys(params ?? {}))
    if (!declared.includes(key)) throw unknownParameter(`STRATEGY_PARAMS for "${entry}"`, key, declared as string[]);
}

function loadBuiltin(
  name: string,
  params: Readonly<Record<string, unknown>> | undefined,
): StrategyAgent | Promise<StrategyAgent> {
  if (!isBuiltinStrategyName(name)) {
    const hint = closestName(name, BUILTIN_STRATEGY_NAMES);
    throw new Error(
      `STRATEGIES entry "${name}" is not a known strategy${hint === null ? '' : ` (did you mean ${hint}?)`} (known: ${BUILTIN_STRATEGY_NAMES.join(', ')}); user strategies are given as a path such as ./my-strategy.ts`,
    );
  }
  const factory: UntypedFactory = BUILTINS[name];
  return factory(params);
}

async function loadModule(
  entry: string,
  params: Readonly<Record<string, unknown>> | undefined,
  cwd: string,
): Promise<StrategyAgent> {
  const file = resolve(cwd, entry);
  let loaded: { default?: unknown };
  try {
    loaded = await importUserModule(entry, file);
  } catch (err) {
    if (err instanceof TsxMissingError) throw err;
    throw new Error(
      `STRATEGIES entry "${entry}": cannot import ${file}: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  const exported = loaded.default;
  if (loadedAsCommonJs(exported))
    throw new Error(
      `STRATEGIES entry "${entry}": ${file} was loaded as CommonJS (the nearest package.json above it does not say "type": "module"), so its default export arrived wrapped as module.exports.default: add "type": "module" to a package.json beside it, or name it .mts (.mjs for JavaScript)`,
    );
  let agent: unknown = exported;
  if (typeof exported === 'function') {
    try {
      agent = (exported as UntypedFactory)(params);
    } catch (err) {
      throw new Error(
        `STRATEGIES entry "${entry}": the factory threw: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
  } else if (params !== undefined) {
    throw new Error(
      `STRATEGIES entry "${entry}": parameters were given but the module exports an agent, not a factory`,
    );
  }
  if (!isStrategyAgent(agent)) {
    throw new Error(
      `STRATEGIES entry "${entry}": ${file} must default-export a StrategyAgent ({ name, analyse }) or a factory returning one`,
    );
  }
  return agent;
}

/**
 * An ES module compiled as CommonJS (tsx does so where package.json has no "type": "module") is
 * imported as `{ default: module.exports }`, so its `export default` sits one level down.
 */
function loadedAsCommonJs(exported: unknown): boolean {
  if (exported === null || typeof exported !== 'object' || isStrategyAgent(exported)) return false;
  const inner: unknown = (exported as { default?: unknown }).default;
  return typeof inner === 'function' || isStrategyAgent(inner);
}

class TsxMissingError extends Error {}

/**
 * Each module file's import, once per process: the launcher's check, `tcs simulate` and the trading
 * system all load the strategies, and tsx's `tsImport` evaluates a module afresh on every call, so a
 * module's top-level code (a counter, a global patch) ran twice and the agent in use was not the one
 * the first load set up. A failed import is forgotten, so a corrected file can be tried again.
 */
const imported = new Map<string, Promise<{ default?: unknown }>>();

function importUserModule(entry: string, file: string): Promise<{ default?: unknown }> {
  let loading = imported.get(file);
  if (loading === undefined) {
    loading = importOnce(entry, file);
    imported.set(file, loading);
    loading.catch(() => imported.delete(file));
  }
  return loading;
}

async function importOnce(entry: string, file: string): Promise<{ default?: unknown }> {
  const url = pathToFileURL(file).href;
  if (RUNTIME_LOADS_TYPESCRIPT || !TYPESCRIPT_FILE.test(file)) return (await import(url)) as { default?: unknown };
  let tsx: typeof TsxApi;
  try {
    tsx = await import('tsx/esm/api');
  } catch (err) {
    throw new TsxMissingError(
      `STRATEGIES entry "${entry}": ${file} is TypeScript, which needs the tsx package to load, and tsx cannot be imported (${err instanceof Error ? err.message : String(err)}); install the production dependencies (npm ci --omit=dev keeps tsx) or compile the strategy to .js`,
      { cause: err },
    );
  }
  // tsImport registers tsx for this one import graph only, not for the rest of the process.
  return (await tsx.tsImport(url, import.meta.url)) as { default?: unknown };
}
