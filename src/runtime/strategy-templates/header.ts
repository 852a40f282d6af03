/**
 * The parts every `tcs strategy new` template shares: the header telling how to run the written
 * strategy and where its parameters go, and the test's snapshot helper. Kept here so the three
 * templates say the same thing the same way.
 */
import type { StrategyKind } from './kinds.js';

/** This package's name (package.json): the written files import `${PACKAGE_NAME}/strategy`. */
export const PACKAGE_NAME = 'trading-control-service';
export const ENTRY = `${PACKAGE_NAME}/strategy`;

/** `create` + the NAME in CamelCase: the factory's name in the written module. */
export function factoryName(name: string): string {
  return `create${name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^./, (c) => c.toUpperCase())}`;
}

/**
 * The module comment: what the rule does (`rule`, lines starting with " * "), then how to run it
 * from `entry` (the STRATEGIES entry as typed where the command ran) with `example` parameters.
 */
export function header(name: string, kind: StrategyKind, rule: string, entry: string, example: object): string {
  const quoted = /^[\w./@:+-]+$/.test(entry) ? entry : `'${entry.replace(/'/g, `'\\''`)}'`;
  return `/**
 * ${name}: written by \`tcs strategy new\` from the ${kind} template (\`--kind breakout\`,
 * \`mean-reversion\` or \`crossover\` writes another). Replace the rule in analyse with your own.
${rule}
 *
 * Run it from the directory \`tcs strategy new\` ran in (paths are relative to where you start):
 *   tcs simulate --strategies ${quoted} --cycles 5000
 *   tcs strategy check ${quoted} --cycles 5000
 *   STRATEGIES=${quoted} npm start
 * with parameters in STRATEGY_PARAMS, e.g. ${JSON.stringify({ [entry]: example })} (keyed by the
 * STRATEGIES entry). A parameter name not in \`parameters\` below is refused, naming the nearest one.
 * Indicators are declared once with trackIndicators, which feeds each closed bar to them once per
 * symbol and declares how much history they need (\`lookback\`), so their values never depend on
 * how much history the run happened to hand over. Everything comes from ${ENTRY}, the public entry.
 */`;
}

/** The test's imports and its snapshot helper: candles from closes, each bar's high/low one above/below. */
export function testPrelude(name: string, what: string): string {
  return `// ${name}: ${what}
import { describe, expect, it } from 'vitest';
import type { Instrument } from '${ENTRY}';
import { barsFromRows, testSnapshot } from '${ENTRY}';
import create from './${name}.js';

const PERP: Instrument = { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };
const SPOT: Instrument = { ...PERP, kind: 'spot' };

/** What analyse receives for these closes, one-minute bars (each bar's high/low one above/below its close). */
function snapshot(closes: number[], position = 0) {
  const bars = barsFromRows(
    closes.map((close, i) => ({ time: i * 60_000, open: close, high: close + 1, low: close - 1, close, volume: 1 })),
  );
  return testSnapshot(bars, { symbol: 'BTCUSDT', fundingRate: 0.0001, position, nav: 10_000 });
}

/** \`n\` closes from \`from\`, moving by \`step\` each bar. */
const line = (n: number, from: number, step: number) => Array.from({ length: n }, (_, i) => from + i * step);
`;
}
