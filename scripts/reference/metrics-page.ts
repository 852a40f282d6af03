/**
 * docs/reference/metrics.md: every metric of this service, read from the registries the two
 * processes really build (the API's through its Fastify plugin, the trading process's TradingMetrics),
 * so a metric added, renamed or removed in the code changes the page. prom-client's own process and
 * Node.js metrics are named, not listed: which exist depends on the platform.
 */
import Fastify from 'fastify';
import type { Registry } from 'prom-client';
import { TradingMetrics } from '../../src/adapters/metrics/trading-metrics.js';
import { RENAMED_FAMILIES } from '../../src/api/exposition.js';
import { metricsPlugin } from '../../src/api/metrics.js';
import type { Store } from '../../src/ports/store.js';
import { code, header, table } from './markdown.js';

/** One metric as the page shows it. */
export interface MetricInfo {
  name: string;
  type: string;
  labels: readonly string[];
  help: string;
}

export interface ProcessMetrics {
  api: readonly MetricInfo[];
  trading: readonly MetricInfo[];
}

/** This service's metrics in a registry (prom-client's defaults left out), by name. */
export function metricsOf(registry: Registry): MetricInfo[] {
  return registry
    .getMetricsAsArray()
    .filter((m) => m.name.startsWith('tcs_'))
    .map((m) => ({
      name: m.name,
      type: String(m.type),
      labels: (m as { labelNames?: readonly string[] }).labelNames ?? [],
      help: m.help,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The API's registry as its plugin builds it. The store is never read: nothing is scraped, and the
 * plugin's metrics only touch the store when collected.
 */
async function apiMetrics(): Promise<MetricInfo[]> {
  const app = Fastify({ logger: false });
  await app.register(metricsPlugin, { store: {} as Store });
  await app.ready();
  const metrics = metricsOf(app.metrics.registry);
  await app.close();
  return metrics;
}

export async function processMetrics(): Promise<ProcessMetrics> {
  return { api: await apiMetrics(), trading: metricsOf(new TradingMetrics().registry) };
}

const rows = (metrics: readonly MetricInfo[]): string[][] =>
  metrics.map((m) => [code(m.name), m.type, m.labels.map(code).join(', ') || '—', m.help]);

export function metricsPage(metrics: ProcessMetrics): string {
  const renamed = Object.entries(RENAMED_FAMILIES).map(([from, to]) => `${code(from)} as ${code(to)}`);
  return [
    ...header('Metrics', 'the metric registries of src/api/metrics.ts and src/adapters/metrics/trading-metrics.ts'),
    '`GET /metrics` is one exposition for both processes: the API appends the trading process’s last published text',
    'to its own. Every series carries a `process` label, `api` or `trading`; each family is described once.',
    '',
    '## API process',
    '',
    ...table(['metric', 'type', 'labels', 'help'], rows(metrics.api)),
    '## Trading process',
    '',
    'Most counters are derived from the event lines (docs/reference/events.md), so a line and its metric never',
    'disagree; `tcs_trading_signals_total` comes from each cycle’s record of its signals (the signal funnel), as',
    'no line carries every signal. The account and state gauges are set when the account is published.',
    '',
    ...table(['metric', 'type', 'labels', 'help'], rows(metrics.trading)),
    '## Process and Node.js metrics',
    '',
    'Both processes also export prom-client’s default metrics under their standard names (`process_cpu_seconds_total`,',
    '`process_resident_memory_bytes`, `nodejs_heap_size_used_bytes`, …), told apart by the `process` label. Gauges',
    `whose names end in \`_total\` (a suffix reserved for counters) are exposed renamed: ${renamed.join(', ')}.`,
    '',
  ].join('\n');
}
