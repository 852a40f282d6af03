/**
 * Every metric the shipped alert rules (deploy/prometheus/alerts.yml) and the Grafana dashboard
 * (deploy/grafana/dashboards) query exists on a real GET /metrics: the API on a real store with the
 * trading process's metrics published, as the service runs. A renamed metric fails here, not at 3 a.m.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TradingMetrics } from '../../src/adapters/metrics/trading-metrics.js';
import { TRADING_METRICS_KEY } from '../../src/domain/runtime-documents.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

const DEPLOY = join(import.meta.dirname, '../../deploy');
/** Series Prometheus makes itself, not the service. */
const FROM_PROMETHEUS = new Set(['up']);

/**
 * Metric names in PromQL text. Every name the service exports starts tcs_, process_ or nodejs_, and
 * no PromQL function or label the queries use does, so these prefixes find every metric read.
 */
function metricNames(promql: string): string[] {
  const names = promql.match(/\b(?:tcs|process|nodejs)_[a-z0-9_]+\b/g) ?? [];
  return [...names, ...(/\bup\{/.test(promql) ? ['up'] : [])];
}

/** Every `expr` of a dashboard's panels (rows nest theirs). */
function dashboardExprs(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(dashboardExprs);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => (k === 'expr' && typeof v === 'string' ? [v] : dashboardExprs(v)));
}

/** Sample names a scrape of this text yields: each family, with a histogram's and summary's series. */
function exposedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      names.add(type[1]!);
      if (type[2] === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(type[1]! + s);
      if (type[2] === 'summary') for (const s of ['_sum', '_count']) names.add(type[1]! + s);
    } else if (line && !line.startsWith('#')) names.add(/^[^{\s]+/.exec(line)![0]);
  }
  return names;
}

describe('metrics the alert rules and the dashboard query', () => {
  let api: TestApi;
  let exposed: Set<string>;
  beforeAll(async () => {
    api = await openTestApi('sqlite');
    // The trading process's registry as it publishes it (every family registered, labelled ones
    // described even before their first sample).
    const trading = new TradingMetrics();
    trading.observeState('running');
    await api.store.kv.set(TRADING_METRICS_KEY, { ts: Date.now(), text: await trading.text() });
    const res = await api.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    exposed = exposedNames(res.body);
  });
  afterAll(async () => api.close());

  it('finds every name in deploy/prometheus/alerts.yml on /metrics', () => {
    const used = metricNames(readFileSync(join(DEPLOY, 'prometheus/alerts.yml'), 'utf8'));
    expect(used.length).toBeGreaterThan(10);
    expect([...new Set(used)].filter((n) => !exposed.has(n) && !FROM_PROMETHEUS.has(n))).toEqual([]);
  });

  it('finds every name the Grafana dashboards query on /metrics', () => {
    const dir = join(DEPLOY, 'grafana/dashboards');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const exprs = dashboardExprs(JSON.parse(readFileSync(join(dir, file), 'utf8')));
      const used = new Set(exprs.flatMap(metricNames));
      expect(used.size, file).toBeGreaterThan(20);
      expect(
        [...used].filter((n) => !exposed.has(n) && !FROM_PROMETHEUS.has(n)),
        file,
      ).toEqual([]);
    }
  });

  it('reads names from PromQL and from the exposition as Prometheus would', () => {
    expect(metricNames('sum(rate(tcs_x_total{a="b"}[5m])) / on() up{job="tcs"}')).toEqual(['tcs_x_total', 'up']);
    const names = exposedNames('# HELP h H\n# TYPE h histogram\n# HELP g G\n# TYPE g gauge\ng{process="api"} 1\n');
    expect([...names].sort()).toEqual(['g', 'h', 'h_bucket', 'h_count', 'h_sum']);
  });
});
