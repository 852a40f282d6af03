/**
 * The combined /metrics text (the API's registry plus the trading process's published text) is
 * one valid exposition: `promtool check metrics` (Prometheus's own parser and linter) finds
 * nothing, both processes' default metrics share one name told apart by `process`, and no family
 * is described twice. Fails, never skips, without promtool: CI installs Debian's `prometheus`.
 */
import { spawnSync } from 'node:child_process';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TradingMetrics } from '../../src/adapters/metrics/trading-metrics.js';
import { mergeExpositions } from '../../src/api/exposition.js';
import { TRADING_METRICS_KEY } from '../../src/domain/runtime-documents.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

function promtool(text: string): { status: number | null; output: string } {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 15_000 });
  if (run.error) throw new Error(`promtool is needed (apt-get install prometheus): ${run.error.message}`);
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('/metrics with the trading process published', () => {
  let api: TestApi;
  let text: string;
  beforeAll(async () => {
    api = await openTestApi('sqlite');
    const trading = new TradingMetrics();
    // A cycle that ended before the arbiter ran: its one signal counted as skipped CYCLE_FAILED.
    const signal = { agent: 'momentum_ma_crossover', symbol: 'BTCUSDT', direction: 1, confidence: 0.5 };
    trading.observeSignals({
      outcome: 'failed',
      account: null,
      replies: [{ agent: signal.agent, signals: [signal] }],
      arbitration: null,
      proposals: [],
      verdicts: [],
      outcomes: [],
    });
    trading.observeState('running');
    await api.store.kv.set(TRADING_METRICS_KEY, { ts: Date.now(), text: await trading.text() });
    await api.app.inject({ method: 'GET', url: '/health' });
    const res = await api.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    text = res.body;
  });
  afterAll(async () => api.close());

  it('passes promtool check metrics with no finding', () => {
    expect(promtool(text)).toEqual({ status: 0, output: '' });
  });

  it('describes every family once', () => {
    const described = text.split('\n').filter((l) => l.startsWith('# TYPE '));
    expect(described.length).toBeGreaterThan(30);
    expect(new Set(described).size).toBe(described.length);
    expect(text.split('\n').filter((l) => l.startsWith('# HELP ')).length).toBe(described.length);
  });

  it('both processes report their default metrics under one name, told apart by process', () => {
    const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
    for (const name of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'nodejs_heap_size_used_bytes']) {
      const processes = families.get(name)?.metrics.map((m) => m.labels?.process);
      expect(processes?.sort(), name).toEqual(['api', 'trading']);
    }
    const renamed = families.get('nodejs_active_handles_all');
    expect(renamed?.type).toBe('GAUGE');
    expect(renamed?.metrics.map((m) => m.labels?.process).sort()).toEqual(['api', 'trading']);
    const names = [...families.keys()];
    expect(names.filter((n) => /^tcs_trading_(process|nodejs)_/.test(n))).toEqual([]);
    expect(names.filter((n) => n.endsWith('_total') && families.get(n)!.type !== 'COUNTER')).toEqual([]);
    expect(families.get('tcs_trading_signals_total')?.metrics[0]?.labels).toMatchObject({
      process: 'trading',
      agent: 'momentum_ma_crossover',
      outcome: 'skipped',
      reason: 'CYCLE_FAILED',
    });
  });
});

describe('mergeExpositions', () => {
  const api = [
    '# HELP h A histogram',
    '# TYPE h histogram',
    'h_bucket{le="1",process="api"} 1',
    'h_bucket{le="+Inf",process="api"} 1',
    'h_sum{process="api"} 0.5',
    'h_count{process="api"} 1',
    '',
    '# HELP nodejs_active_handles_total Total number of active handles.',
    '# TYPE nodejs_active_handles_total gauge',
    'nodejs_active_handles_total{process="api"} 3',
    '',
  ].join('\n');
  const trading =
    api.replaceAll('process="api"', 'process="trading"') + '# HELP t Trading only\n# TYPE t counter\nt 1\n';

  it('merges families by name, renames the _total gauges, and keeps samples in order', () => {
    expect(mergeExpositions([api, trading])).toBe(
      [
        '# HELP h A histogram',
        '# TYPE h histogram',
        'h_bucket{le="1",process="api"} 1',
        'h_bucket{le="+Inf",process="api"} 1',
        'h_sum{process="api"} 0.5',
        'h_count{process="api"} 1',
        'h_bucket{le="1",process="trading"} 1',
        'h_bucket{le="+Inf",process="trading"} 1',
        'h_sum{process="trading"} 0.5',
        'h_count{process="trading"} 1',
        '# HELP nodejs_active_handles_all Total number of active handles.',
        '# TYPE nodejs_active_handles_all gauge',
        'nodejs_active_handles_all{process="api"} 3',
        'nodejs_active_handles_all{process="trading"} 3',
        '# HELP t Trading only',
        '# TYPE t counter',
        't 1',
        '',
      ].join('\n'),
    );
  });

  it('leaves out a family whose type disagrees with the first one of that name', () => {
    const merged = mergeExpositions([
      '# HELP x X\n# TYPE x gauge\nx{process="api"} 1\n',
      '# HELP x X\n# TYPE x counter\nx{process="trading"} 2\n',
    ]);
    expect(merged).toBe('# HELP x X\n# TYPE x gauge\nx{process="api"} 1\n');
  });
});
