/**
 * Builds data directories for the file-feed tests in a temp dir: candle and funding files as CSV
 * (text exactly as given, so broken rows can be written) or Parquet (through hyparquet-writer).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';

export const T0 = Date.UTC(2024, 0, 1); // 2024-01-01T00:00:00Z
export const MIN = 60_000;

export type CandleRow = [number, number, number, number, number, number];

/** `n` valid 1-minute candles from `start`, closes rising by `drift` per candle from `p0`. */
export function candles(n: number, start = T0, p0 = 100, drift = 1, stepMs = MIN): CandleRow[] {
  return Array.from({ length: n }, (_, i) => {
    const open = p0 + drift * i;
    const close = open + drift;
    return [start + i * stepMs, open, Math.max(open, close) + 2, Math.min(open, close) - 2, close, 10 + i];
  });
}

export const csv = (header: string, rows: readonly (readonly (number | string)[])[]): string =>
  [header, ...rows.map((r) => r.join(','))].join('\n') + '\n';

export const CANDLE_HEADER = 'timestamp,open,high,low,close,volume';
export const FUNDING_HEADER = 'timestamp,rate';

export function candleParquet(rows: readonly CandleRow[], timestampType: 'INT64' | 'TIMESTAMP' = 'INT64'): ArrayBuffer {
  const col = (k: number): number[] => rows.map((r) => r[k]!);
  return parquetWriteBuffer({
    columnData: [
      {
        name: 'timestamp',
        data: timestampType === 'INT64' ? rows.map((r) => BigInt(r[0])) : rows.map((r) => new Date(r[0])),
        type: timestampType,
      },
      ...['open', 'high', 'low', 'close', 'volume'].map((name, k) => ({
        name,
        data: col(k + 1),
        type: 'DOUBLE' as const,
      })),
    ],
  });
}

export function fundingParquet(rows: readonly [number, number][]): ArrayBuffer {
  return parquetWriteBuffer({
    columnData: [
      { name: 'timestamp', data: rows.map((r) => BigInt(r[0])), type: 'INT64' },
      { name: 'rate', data: rows.map((r) => r[1]), type: 'DOUBLE' },
    ],
  });
}

export interface TempDirs {
  /** A fresh data directory holding `files` (relative path → text or Parquet bytes). */
  make(files: Record<string, string | ArrayBuffer>): string;
  cleanup(): void;
}

export function tempDirs(): TempDirs {
  const made: string[] = [];
  return {
    make(files) {
      const dir = mkdtempSync(join(tmpdir(), 'tcs-data-'));
      made.push(dir);
      for (const [rel, content] of Object.entries(files)) {
        mkdirSync(join(dir, rel, '..'), { recursive: true });
        writeFileSync(join(dir, rel), typeof content === 'string' ? content : Buffer.from(content));
      }
      return dir;
    },
    cleanup() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
