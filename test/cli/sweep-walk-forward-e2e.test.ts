/**
 * A walk-forward sweep through the real CLI (issue 34 item 7): a rolling generator of 3 folds over
 * the two-day sample replay, 2 parameter sets. Each fold's out-of-sample run is the set ranked first
 * in sample; their equity is stitched into walk_forward/equity.csv (contiguous, compounded from the
 * previous fold's end NAV); results.json, stdout and results.html report the folds, the stitched
 * return and drawdown and the pooled walk-forward efficiency, which agree with the trials' own files.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-wf-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const out = join(root, 'out');
const SAMPLE = fileURLToPath(new URL('../../data/sample', import.meta.url));

const csv = (file: string) => {
  const [header, ...lines] = readFileSync(file, 'utf8').trimEnd().split('\n');
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [names[i]!, cell])));
};

interface Report {
  mode: string;
  folds: {
    fold: number;
    in_sample: { from: string; to: string; days: number };
    out_of_sample: { from: string; to: string; days: number };
    param_set: string;
    out_of_sample_trial: string;
    in_sample_objective: number;
    out_of_sample_objective: number;
    out_of_sample_return: number;
  }[];
  stitched_return: number;
  stitched_max_drawdown: number;
  wfe: number | null;
  wfe_method: string;
}

describe('tcs sweep: a rolling walk-forward on a replay', () => {
  let run: { code: number | null; stdout: string; stderr: string };
  let report: Report;

  beforeAll(async () => {
    const spec = join(root, 'wf.json');
    writeFileSync(
      spec,
      JSON.stringify({
        params: { RISK_FRACTION: [0.05, 0.2] },
        env: { SYMBOLS: 'BTCUSDT,ETHUSDT' },
        // The default strategies' history (494 one-minute candles) lies before from; a window in
        // which the chosen sets made money in sample, so the efficiency is defined.
        data: { dir: SAMPLE, from: '2024-01-01T18:00:00Z', to: '2024-01-02T00:00:00Z' },
        objective: 'total_return',
        walk_forward: { mode: 'rolling', folds: 3, in_sample: '3h', out_of_sample: '1h' },
      }),
    );
    const proc = startTcs(['sweep', spec, '--out', out, '--workers', '2', '--quiet'], {}, root);
    const { code } = await exitWithin(proc, 60_000);
    run = { code, stdout: proc.stdout(), stderr: proc.stderr() };
    report = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')).walk_forward as Report;
  }, 90_000);

  it('runs each fold in sample, then its in-sample best out of sample', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const rows = csv(join(out, 'results.csv'));
    expect(report.mode).toBe('rolling');
    expect(
      report.folds.map((f) => [f.in_sample.from, f.in_sample.to, f.out_of_sample.from, f.out_of_sample.to]),
    ).toEqual([
      ['2024-01-01T18:00:00.000Z', '2024-01-01T21:00:00.000Z', '2024-01-01T21:00:00.000Z', '2024-01-01T22:00:00.000Z'],
      ['2024-01-01T19:00:00.000Z', '2024-01-01T22:00:00.000Z', '2024-01-01T22:00:00.000Z', '2024-01-01T23:00:00.000Z'],
      ['2024-01-01T20:00:00.000Z', '2024-01-01T23:00:00.000Z', '2024-01-01T23:00:00.000Z', '2024-01-02T00:00:00.000Z'],
    ]);
    for (const fold of report.folds) {
      const best = rows.find((r) => r.fold === String(fold.fold) && r.sample === 'in_sample' && r.rank === '1')!;
      const oos = rows.find((r) => r.fold === String(fold.fold) && r.sample === 'out_of_sample')!;
      expect(fold.param_set).toBe(best.param_set);
      expect(oos.trial).toBe(`f${fold.fold}-oos-${best.param_set}`);
      expect(fold.out_of_sample_trial).toBe(oos.trial);
      expect(fold.in_sample_objective).toBe(Number(best.total_return));
      expect(fold.out_of_sample_objective).toBe(Number(oos.total_return));
      expect(fold.out_of_sample_return).toBe(Number(oos.total_return));
    }
  });

  it('stitches the out-of-sample equity: contiguous minutes, compounded from the previous fold', () => {
    const stitched = csv(join(out, 'walk_forward', 'equity.csv'));
    // 21:01 … 24:00, one row a minute, the folds in order.
    expect(stitched).toHaveLength(3 * 60);
    stitched.forEach((row, i) => expect(Date.parse(row.ts!)).toBe(Date.parse('2024-01-01T21:01:00Z') + i * 60_000));
    expect(stitched.map((r) => r.fold)).toEqual(['1', '2', '3'].flatMap((f) => Array(60).fill(f)));
    let base = 100_000;
    for (const fold of report.folds) {
      const own = csv(join(out, 'trials', fold.out_of_sample_trial, 'equity.csv'));
      const mine = stitched.filter((r) => r.fold === String(fold.fold));
      own.forEach((row, i) => expect(Number(mine[i]!.nav)).toBeCloseTo((Number(row.nav) * base) / 100_000, 6));
      base = (Number(own[own.length - 1]!.nav) * base) / 100_000;
    }
    const compounded = report.folds.reduce((nav, f) => nav * (1 + f.out_of_sample_return), 1) - 1;
    expect(report.stitched_return).toBeCloseTo(compounded, 7);
    expect(report.stitched_return).toBeCloseTo(base / 100_000 - 1, 10);
    const worst = Math.max(...stitched.map((r) => Number(r.drawdown)));
    expect(report.stitched_max_drawdown).toBe(worst);
  });

  it('reports the pooled walk-forward efficiency from the in-sample and out-of-sample returns', () => {
    const rows = csv(join(out, 'results.csv'));
    const inSample = report.folds.map((f) =>
      rows.find((r) => r.fold === String(f.fold) && r.sample === 'in_sample' && r.rank === '1')!,
    );
    // Each in-sample window is 3 h (0.125 days), the three out-of-sample windows 1 h each.
    const isRate = (365 * inSample.reduce((sum, r) => sum + Number(r.total_return), 0)) / 0.375;
    const oosRate = (365 * report.stitched_return) / 0.125;
    expect(report.wfe_method).toMatch(/^pooled/);
    expect(isRate).toBeGreaterThan(0);
    expect(report.wfe).toBeCloseTo(oosRate / isRate, 6);
  });

  it('prints the folds and the stitched result, and draws them on results.html', () => {
    expect(run.stdout).toContain('walk-forward (rolling, 3 folds):');
    expect(run.stdout).toContain(
      `  fold 1: in sample 2024-01-01T18:00Z → 2024-01-01T21:00Z, out of sample 2024-01-01T21:00Z → 2024-01-01T22:00Z: ${report.folds[0]!.param_set}`,
    );
    expect(run.stdout).toMatch(/stitched out-of-sample return -?\d+\.\d\d %, max drawdown \d+\.\d\d %, WFE /);
    expect(run.stdout).toContain(join(out, 'walk_forward', 'equity.csv'));
    const html = readFileSync(join(out, 'results.html'), 'utf8');
    expect(html).toContain('id="walk-forward"');
    expect(html).toContain('<svg id="walk-forward-equity"');
    expect(html).toContain(`${(report.stitched_return * 100).toFixed(2)} %`);
  });
});
