/**
 * Resuming a CSV file of the data directory format: a download may have been killed mid-write, so
 * the file is cut back to its last complete line (one ending in a newline), its header is checked,
 * and the last row tells where to continue. Appends are whole lines, so whatever a crash leaves
 * behind is at most one partial line, which the next run cuts.
 */
import { existsSync } from 'node:fs';
import { open, readFile, truncate, writeFile } from 'node:fs/promises';

export interface ResumePoint {
  /** The last complete row's fields, or null for a file with only its header. */
  lastRow: string[] | null;
  /** How many data rows the file holds. */
  rows: number;
}

/** Creates the file with its header, or cuts it back to its last complete line and reads where it ended. */
export async function prepareCsv(path: string, header: string): Promise<ResumePoint> {
  if (!existsSync(path)) {
    await writeFile(path, `${header}\n`);
    return { lastRow: null, rows: 0 };
  }
  const text = await readFile(path, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) await truncate(path, Buffer.byteLength(text.slice(0, end)));
  const lines = text.slice(0, end).split('\n').slice(0, -1);
  if (lines.length === 0) {
    await writeFile(path, `${header}\n`);
    return { lastRow: null, rows: 0 };
  }
  if (lines[0] !== header) {
    throw new Error(`${path}:1: header is "${lines[0]}", expected "${header}" (not a file this download wrote)`);
  }
  const rows = lines.length - 1;
  const last = rows > 0 ? lines[lines.length - 1]!.split(',') : null;
  if (last && !last.every((field) => field !== '' && Number.isFinite(Number(field)))) {
    throw new Error(`${path}:${lines.length}: cannot resume after a malformed row "${last.join(',')}"`);
  }
  return { lastRow: last, rows };
}

/** Appends whole lines in one write. */
export async function appendLines(path: string, lines: readonly string[]): Promise<void> {
  if (lines.length === 0) return;
  const handle = await open(path, 'a');
  try {
    await handle.write(`${lines.join('\n')}\n`);
  } finally {
    await handle.close();
  }
}
