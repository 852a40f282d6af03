/**
 * BENCHMARKS.md is one current table (bench/figures-table.ts): every row well-formed, its command
 * naming a script that exists, and the file exactly as `npm run bench` would rewrite it, so a run
 * changes only the rows it measured. The checks themselves are shown to fail on made-up rows.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  COLUMNS,
  figureTableProblems,
  mergeFigureRows,
  parseFiguresTable,
  scriptsNamed,
  withFiguresTable,
} from '../../bench/figures-table.js';
import type { FigureRow } from '../../bench/figures-table.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BENCHMARKS = readFileSync(`${ROOT}BENCHMARKS.md`, 'utf8');

const row = (figure: string, overrides: Partial<FigureRow> = {}): FigureRow => ({
  figure,
  aim: '< 10 ms',
  latest: '5 ms — met',
  command: '`node bin/run-ts.mjs bench/transition.bench.ts`',
  machine: '2 cores',
  date: '2026-11-27 (abc1234)',
  ...overrides,
});

describe('BENCHMARKS.md', () => {
  const { rows } = parseFiguresTable(BENCHMARKS);

  it('is one table of figure · aim · latest · command · machine · date, one row per figure', () => {
    expect(COLUMNS).toEqual(['figure', 'aim', 'latest', 'command', 'machine', 'date']);
    expect(rows.length).toBeGreaterThan(10);
    expect(new Set(rows.map((r) => r.figure)).size).toBe(rows.length);
    // One table only: the history of runs lives in docs/develop/benchmarks-history.md.
    expect(BENCHMARKS.match(/^\| figure /gm)).toHaveLength(1);
    expect(BENCHMARKS).toContain('(docs/develop/benchmarks-history.md)');
  });

  it('has well-formed rows whose commands name scripts that exist', () => {
    expect(figureTableProblems(rows, ROOT)).toEqual([]);
  });

  it('is exactly what npm run bench writes for these rows', () => {
    expect(withFiguresTable(BENCHMARKS, rows)).toBe(BENCHMARKS);
  });
});

describe('mergeFigureRows', () => {
  it('replaces rows by figure, keeps the rest in place and appends new figures', () => {
    const current = [row('a'), row('b', { latest: 'old' }), row('c')];
    const merged = mergeFigureRows(current, [row('b', { latest: 'new' }), row('d')]);
    expect(merged.map((r) => [r.figure, r.latest])).toEqual([
      ['a', '5 ms — met'],
      ['b', 'new'],
      ['c', '5 ms — met'],
      ['d', '5 ms — met'],
    ]);
  });
});

describe('figureTableProblems', () => {
  it('names a missing script, an unknown npm script, a bad date, an empty cell and a repeated figure', () => {
    const problems = figureTableProblems(
      [
        row('gone', { command: '`node bin/run-ts.mjs bench/no-such.bench.ts`' }),
        row('npm', { command: '`npm run no-such-script`' }),
        row('prose', { command: 'ask someone' }),
        row('when', { date: 'yesterday' }),
        row('empty', { aim: '' }),
        row('twice'),
        row('twice'),
      ],
      ROOT,
    );
    expect(problems).toEqual([
      'gone: bench/no-such.bench.ts does not exist',
      'npm: package.json has no script "no-such-script"',
      'prose: the command is not given as code',
      'prose: the command names no script of the repository (ask someone)',
      'when: the date does not start YYYY-MM-DD (yesterday)',
      'empty: the aim cell is empty',
      'twice: the figure appears twice',
    ]);
  });

  it('reads scripts from env-prefixed commands, node flags and npm', () => {
    expect(
      scriptsNamed('`SIM=1 node --expose-gc bin/run-ts.mjs bench/simulate-throughput.bench.ts` then `npm run bench`'),
    ).toEqual({ files: ['bin/run-ts.mjs', 'bench/simulate-throughput.bench.ts'], npmScripts: ['bench'] });
  });
});

describe('parseFiguresTable', () => {
  it('refuses a file without the table, and a row with the wrong number of cells', () => {
    expect(() => parseFiguresTable('# Benchmarks\n')).toThrow(/no table/);
    const broken = withFiguresTable(BENCHMARKS, [row('x')]).replace('| x ', '| x | extra ');
    expect(() => parseFiguresTable(broken)).toThrow(/7 cells, not 6/);
  });

  it('keeps a | inside a cell', () => {
    const text = withFiguresTable(BENCHMARKS, [row('a | b')]);
    expect(parseFiguresTable(text).rows[0]!.figure).toBe('a | b');
  });
});
