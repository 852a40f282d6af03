/**
 * Strategy code cannot change anything but its own signals (issue 34, item 1), through `tcs simulate`
 * as a user runs it, with strategy modules written here into a temp dir and loaded by path:
 *  * a strategy that halves the best ask or sorts the book in place fills exactly as one that does not;
 *  * a strategy writing into its candle arrays changes no other agent's candles;
 *  * a module that replaces `globalThis.Float64Array` at import never holds a replay bar from the future,
 *    nor one that patches its prototype and the globals the replay's reader calls (the CSV is read as it replays);
 *  * a module is imported (evaluated) once per process.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const BARS = 40;
/** The last candle's close: a value no earlier candle has, so holding it means holding the future. */
const FUTURE_MARK = 777.25;

const root = mkdtempSync(join(tmpdir(), 'tcs-isolation-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
// The modules are ES modules, as in a user's project (a folder without it loads them as CommonJS).
writeFileSync(join(root, 'package.json'), '{"type":"module"}');

/** BTCUSDT spot candles, one a minute, wandering around 100, deep enough that a fill takes the touch. */
function dataDir(): string {
  const dir = join(root, 'data');
  mkdirSync(join(dir, 'candles'), { recursive: true });
  const rows: string[] = [];
  for (let i = 0; i < BARS; i++) {
    const close = i === BARS - 1 ? FUTURE_MARK : 100 + ((i * 7) % 11) / 2;
    rows.push([T0 + i * MIN, close - 0.5, close + 1, close - 1, close, 100_000].join(','));
  }
  writeFileSync(join(dir, 'candles', 'BTCUSDT.csv'), ['timestamp,open,high,low,close,volume', ...rows, ''].join('\n'));
  return dir;
}

/** A strategy module (TypeScript, as `tcs strategy new` writes them) with `body` run in analyse first. */
function strategy(file: string, name: string, body: string, top = ''): string {
  const path = join(root, file);
  writeFileSync(
    path,
    `${top}
export default {
  name: ${JSON.stringify(name)},
  lookback: 5,
  analyse(s: any) {
    ${body}
    // Long on even minutes, flat on odd ones: a fill nearly every cycle.
    const direction = Math.floor(s.ts / 60000) % 2 === 0 ? 1 : 0;
    return { agent: ${JSON.stringify(name)}, symbol: s.symbol, direction, confidence: 1 };
  },
};
`,
  );
  return path;
}

async function simulate(out: string, strategies: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const proc = startTcs(
    ['simulate', '--data', data, '--out', join(root, out), '--quiet'],
    { SYMBOLS: 'BTCUSDT:spot', STRATEGIES: strategies, ...env },
    root,
  );
  const { code } = await exitWithin(proc, 60_000);
  expect(proc.stderr()).toBe('');
  expect(code).toBe(0);
  return readFileSync(join(root, out, 'trades.csv'), 'utf8');
}

const data = dataDir();

describe('tcs simulate: strategy code changes nothing but its own signals', () => {
  it('halving the best ask or sorting the book in place leaves every fill as it was', async () => {
    const plain = strategy('plain.ts', 'flipper', '');
    const halving = strategy('halving.ts', 'flipper', 'try { s.asks[0].price /= 2; s.bids[0].price *= 2; } catch {}');
    const sorting = strategy(
      'sorting.ts',
      'flipper',
      'try { s.asks.sort((a: any, b: any) => b.price - a.price); s.asks.length = 1; } catch {}',
    );
    // Filled at the close the strategy saw, off the book it was handed (the next open's fill too).
    const close = { FILL_MODEL: 'close' };
    const [expected, halved, sorted, nextOpen, nextOpenHalved] = await Promise.all([
      simulate('book-plain', plain, close),
      simulate('book-halving', halving, close),
      simulate('book-sorting', sorting, close),
      simulate('book-plain-next-open', plain),
      simulate('book-halving-next-open', halving),
    ]);
    expect(nextOpenHalved).toBe(nextOpen);
    expect(expected.trimEnd().split('\n').length).toBeGreaterThan(10);
    expect(halved).toBe(expected);
    expect(sorted).toBe(expected);
  }, 90_000);

  it("an agent writing into its candles changes no other agent's candles", async () => {
    const seen = join(root, 'seen-closes.txt');
    const writer = strategy(
      'writer.ts',
      'writer',
      // Replacing an array throws (the agent's error); writing into one changes only the writer's copy.
      's.candles.close.fill(0); s.bars.open[0] = 0; s.closes[0] = 0; try { s.candles.close = new Float64Array(5); } catch {}',
    );
    const reader = strategy(
      'reader.ts',
      'reader',
      `appendFileSync(${JSON.stringify(seen)}, Math.min(...s.candles.close, ...s.bars.open) + '\\n');`,
      "import { appendFileSync } from 'node:fs';",
    );
    await simulate('candles', `${writer},${reader}`);
    const mins = readFileSync(seen, 'utf8').trimEnd().split('\n').map(Number);
    expect(mins.length).toBeGreaterThan(10);
    expect(mins.filter((m) => !(m > 90))).toEqual([]);
  }, 60_000);

  it('a module replacing globalThis.Float64Array at import holds no candle of the future', async () => {
    const leaked = join(root, 'leaked.txt');
    const spy = strategy(
      'spy.ts',
      'spy',
      `for (const a of captured) if (Array.prototype.includes.call(a, ${FUTURE_MARK}) && a.length > 0) appendFileSync(${JSON.stringify(leaked)}, s.ts + '\\n');`,
      `import { appendFileSync } from 'node:fs';
const captured: Float64Array[] = [];
const Real = globalThis.Float64Array;
globalThis.Float64Array = class extends Real {
  constructor(...args: any[]) { super(...(args as [])); captured.push(this); }
} as any;`,
    );
    await simulate('spy', spy);
    // The last candle's close may be seen only once the last candle has closed.
    const early = existsSync(leaked)
      ? readFileSync(leaked, 'utf8')
          .trimEnd()
          .split('\n')
          .map(Number)
          .filter((ts) => ts < T0 + BARS * MIN)
      : [];
    expect(early).toEqual([]);
  }, 60_000);

  it('a module patching Float64Array, its prototype and the globals a reader calls, at import, sees no candle of the future', async () => {
    // What the replay computes with passes through whatever the module patched: every typed array
    // made, sliced or copied; every number handed to Math, Number or an array's callbacks; every Buffer
    // searched or decoded. None may hold the last close before the last candle has closed.
    const leaked = join(root, 'deep-leaked.txt');
    const spy = strategy(
      'deep-spy.ts',
      'deepspy',
      `if (s.ts < ${T0 + BARS * MIN} && holdsFuture()) appendFileSync(${JSON.stringify(leaked)}, s.ts + '\\n');`,
      `import { appendFileSync } from 'node:fs';
const Real = globalThis.Float64Array;
const arrays: any[] = [];
const numbers = new Set<number>();
const keep = (x: any) => { arrays[arrays.length] = x; };
const includes = Function.prototype.call.bind(Array.prototype.includes);
const text = Function.prototype.call.bind(Buffer.prototype.toString);
function holdsFuture(): boolean {
  if (numbers.has(${FUTURE_MARK})) return true;
  for (const a of arrays) {
    if (Buffer.isBuffer(a)) { if (text(a, 'latin1').indexOf('${FUTURE_MARK}') !== -1) return true; continue; }
    if (includes(a, ${FUTURE_MARK})) return true;
    if (a instanceof Real && includes(new Real(a.buffer, 0, a.buffer.byteLength >> 3), ${FUTURE_MARK})) return true;
  }
  return false;
}
globalThis.Float64Array = class extends Real {
  constructor(...args: any[]) { super(...(args as [])); keep(this); }
} as any;
const wrap = (owner: any, names: string[], mine = false) => {
  for (const name of names) {
    const real = owner[name];
    owner[name] = function (this: any, ...args: any[]) {
      if (mine) keep(this);
      for (const x of args) { if (typeof x === 'number') numbers.add(x); else if (x && typeof x === 'object') keep(x); }
      const out = real.apply(this, args);
      if (out && typeof out === 'object') keep(out);
      return out;
    };
  }
};
wrap(Object.getPrototypeOf(Real.prototype), ['slice', 'subarray', 'set', 'fill', 'map', 'filter', 'indexOf'], true);
wrap(Buffer.prototype, ['indexOf', 'toString', 'subarray', 'slice'], true);
wrap(Buffer, ['concat', 'from']);
wrap(Math, ['max', 'min', 'abs', 'round', 'floor', 'ceil']);
wrap(Number, ['isFinite', 'isInteger', 'isNaN']);
wrap(Array.prototype, ['find', 'findIndex', 'some', 'every'], true);`,
    );
    await simulate('deep-spy', spy);
    expect(existsSync(leaked) ? readFileSync(leaked, 'utf8') : '').toBe('');
  }, 60_000);

  it('imports each strategy module once per process', async () => {
    const count = join(root, 'imports.txt');
    const once = strategy(
      'once.ts',
      'once',
      '',
      `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(count)}, 'imported\\n');`,
    );
    await simulate('once', once);
    expect(readFileSync(count, 'utf8')).toBe('imported\n');
  }, 60_000);
});
