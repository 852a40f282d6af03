/**
 * `tcs audit export` (issue 35): a range of the audit trail, archive and hot store read as one
 * chain, written for an accountant as CSV (src/domain/audit-export-rows.ts names the columns) or as
 * JSON lines (the entries as stored, hashes included, so the file can be re-verified). With --out
 * it is written to a temporary file renamed into place only when the whole range was read, so a
 * failed export leaves no half a file; without it, to stdout. The summary goes to stderr.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { openStore } from '../adapters/open-store.js';
import { parseBound, readRange, resolveRange } from '../application/audit-range.js';
import type { RangeBound } from '../application/audit-range.js';
import { canonicalJson } from '../domain/canonical-json.js';
import { csvHeader, csvLine, exportRows } from '../domain/audit-export-rows.js';
import type { AuditEvent } from '../ports/event-store.js';
import { ConfigError } from './config-error.js';
import { readStoreUrl } from './config.js';
import { openArchive } from './audit-archive.js';

export const AUDIT_EXPORT_USAGE =
  'Usage: tcs audit export [--from <seq|iso>] [--to <seq|iso>] [--out file] [--format csv|jsonl]';

export interface ExportOptions {
  from?: string;
  to?: string;
  out?: string;
  format?: string;
}

type Format = 'csv' | 'jsonl';

/** Bad arguments are a ConfigError (exit 2) before anything is opened or written. */
function readOptions(options: ExportOptions): { from?: RangeBound; to?: RangeBound; format: Format; out?: string } {
  const format = options.format ?? 'csv';
  if (format !== 'csv' && format !== 'jsonl') throw new ConfigError(`--format must be csv or jsonl; got "${format}"`);
  if (options.out !== undefined && options.out.trim() === '') throw new ConfigError('--out needs a file name');
  try {
    return {
      format,
      ...(options.from !== undefined ? { from: parseBound(options.from, '--from') } : {}),
      ...(options.to !== undefined ? { to: parseBound(options.to, '--to') } : {}),
      ...(options.out !== undefined ? { out: resolve(options.out) } : {}),
    };
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

/** Where the text goes: a file written in place of a temporary one, or stdout (minding its buffer). */
interface Sink {
  write(text: string): Promise<void>;
  /** Done: the file renamed into place. */
  finish(): Promise<void>;
  /** Failed: the temporary file removed. */
  abandon(): void;
}

function fileSink(path: string): Sink {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    write: async (text) => void writeSync(fd, text),
    finish: async () => {
      close();
      renameSync(tmp, path);
    },
    abandon: () => {
      close();
      rmSync(tmp, { force: true });
    },
  };
}

/**
 * stdout, minding its buffer. A reader that stops early (`| head`) closes the pipe: the write fails
 * with EPIPE, which ends the export quietly (the reader had what it wanted) instead of an unhandled
 * error event.
 */
function stdoutSink(): Sink {
  let broken: Error | null = null;
  // Kept for the rest of the process: an EPIPE can arrive after the last write returned.
  process.stdout.on('error', (err) => {
    broken = err;
  });
  const drained = () =>
    new Promise<void>((done) => {
      const end = () => {
        process.stdout.off('drain', end);
        process.stdout.off('error', end);
        done();
      };
      process.stdout.once('drain', end);
      process.stdout.once('error', end);
    });
  return {
    async write(text) {
      if (broken === null && !process.stdout.write(text)) await drained();
      if (broken !== null) throw broken;
    },
    finish: async () => {},
    abandon: () => {},
  };
}

const render = (format: Format, page: AuditEvent[]): string =>
  format === 'jsonl'
    ? page.map((e) => canonicalJson(e) + '\n').join('')
    : page.flatMap((e) => exportRows(e).map(csvLine)).join('');

export async function exportAuditTrail(env: NodeJS.ProcessEnv, options: ExportOptions): Promise<number> {
  const { from, to, format, out } = readOptions(options);
  const archive = openArchive(env);
  const store = await openStore(readStoreUrl(env)).catch(async (err: unknown) => {
    await archive.close();
    throw err;
  });
  let sink: Sink | null = null;
  try {
    const range = await resolveRange(store.events, archive, from, to);
    sink = out === undefined ? stdoutSink() : fileSink(out);
    if (format === 'csv') await sink.write(csvHeader());
    let count = 0;
    for await (const page of readRange(store.events, archive, range)) {
      await sink.write(render(format, page));
      count += page.length;
    }
    await sink.finish();
    const which = count === 0 ? 'no entries in that range' : `entries ${range.from}–${range.to}`;
    console.error(`audit export: ${count} entries (${which}) as ${format} to ${out ?? 'stdout'}`);
    return 0;
  } catch (err) {
    sink?.abandon();
    if ((err as { code?: string }).code === 'EPIPE') return 0; // the reader closed the pipe
    if (err instanceof RangeError) {
      console.error(`audit export: ${err.message}\n${AUDIT_EXPORT_USAGE}`);
      return 2;
    }
    console.error(`audit export failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await archive.close();
    await store.close();
  }
}
