/**
 * BENCHMARKS.md's one table: figure · aim · latest · command · machine · date, one row per figure,
 * keyed by the figure column. `npm run bench` replaces the rows of the figures it measured and
 * keeps the rest (each row dated and attributed to the command and machine behind it), so the file
 * always reads as the current state; how each figure was measured, and every earlier value, is in
 * docs/develop/benchmarks-history.md. The table sits between two HTML comments so the prose around
 * it is left alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable } from './stats.js';

export const TABLE_START =
  '<!-- figures: one row per figure, rewritten by `npm run bench` (keyed by the figure column) -->';
export const TABLE_END = '<!-- /figures -->';
export const COLUMNS = ['figure', 'aim', 'latest', 'command', 'machine', 'date'] as const;

export type FigureRow = Record<(typeof COLUMNS)[number], string>;

/** Split a table line into cells, honouring `\|` inside a cell. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

const escapeCell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** The table's rows, and the text before and after it; throws when the markers or header are missing. */
export function parseFiguresTable(markdown: string): { before: string; rows: FigureRow[]; after: string } {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`BENCHMARKS.md has no table between "${TABLE_START}" and "${TABLE_END}"`);
  const lines = markdown
    .slice(start + TABLE_START.length, end)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const [header, rule, ...body] = lines;
  if (!header || JSON.stringify(cells(header)) !== JSON.stringify(COLUMNS))
    throw new Error(`the table's header must be | ${COLUMNS.join(' | ')} |, found ${header ?? 'nothing'}`);
  if (!rule || !cells(rule).every((cell) => /^:?-{3,}:?$/.test(cell)))
    throw new Error('the table has no header rule under its header');
  const rows = body.map((line, i) => {
    const values = cells(line);
    if (values.length !== COLUMNS.length)
      throw new Error(`table row ${i + 1} has ${values.length} cells, not ${COLUMNS.length}: ${line}`);
    return Object.fromEntries(COLUMNS.map((column, c) => [column, values[c]!])) as FigureRow;
  });
  return { before: markdown.slice(0, start), rows, after: markdown.slice(end + TABLE_END.length) };
}

export function renderFiguresTable(rows: readonly FigureRow[]): string {
  return markdownTable({
    headers: [...COLUMNS],
    rows: rows.map((row) => COLUMNS.map((column) => escapeCell(row[column]))),
  });
}

/** The whole file with the table's rows replaced. */
export function withFiguresTable(markdown: string, rows: readonly FigureRow[]): string {
  const { before, after } = parseFiguresTable(markdown);
  return `${before}${TABLE_START}\n\n${renderFiguresTable(rows)}\n\n${TABLE_END}${after}`;
}

/** `current` with each row of `measured` replacing the row of the same figure; new figures go last. */
export function mergeFigureRows(current: readonly FigureRow[], measured: readonly FigureRow[]): FigureRow[] {
  const byFigure = new Map(measured.map((row) => [row.figure, row]));
  const merged = current.map((row) => byFigure.get(row.figure) ?? row);
  const known = new Set(current.map((row) => row.figure));
  return [...merged, ...measured.filter((row) => !known.has(row.figure))];
}

/** The scripts a command runs: paths under bench/, bin/, scripts/, src/, and `npm run X` / `npm test`. */
export function scriptsNamed(command: string): { files: string[]; npmScripts: string[] } {
  const files = [...command.matchAll(/(?:^|[\s'"`(=])((?:bench|bin|scripts|src)\/[\w./-]+\.(?:ts|mts|mjs|js))/g)].map(
    (match) => match[1]!,
  );
  const npmScripts = [...command.matchAll(/\bnpm (?:run (\S+)|(test|start))\b/g)].map((match) => match[1] ?? match[2]!);
  return { files, npmScripts };
}

/** What is wrong with the rows, one sentence each (empty when they are well-formed). */
export function figureTableProblems(rows: readonly FigureRow[], repoRoot: string): string[] {
  const problems: string[] = [];
  const scripts = (
    JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  const seen = new Set<string>();
  for (const row of rows) {
    const name = row.figure || '(no figure)';
    for (const column of COLUMNS) if (row[column] === '') problems.push(`${name}: the ${column} cell is empty`);
    if (seen.has(row.figure)) problems.push(`${name}: the figure appears twice`);
    seen.add(row.figure);
    if (!/^`[^`]+`/.test(row.command)) problems.push(`${name}: the command is not given as code`);
    const { files, npmScripts } = scriptsNamed(row.command);
    if (files.length === 0 && npmScripts.length === 0)
      problems.push(`${name}: the command names no script of the repository (${row.command})`);
    for (const file of files) if (!existsSync(join(repoRoot, file))) problems.push(`${name}: ${file} does not exist`);
    for (const script of npmScripts)
      if (!(script in scripts)) problems.push(`${name}: package.json has no script "${script}"`);
    if (!/^\d{4}-\d{2}-\d{2}\b/.test(row.date))
      problems.push(`${name}: the date does not start YYYY-MM-DD (${row.date})`);
  }
  return problems;
}
