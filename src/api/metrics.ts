/**
 * Prometheus metrics for the API process: request counts and durations by route and status,
 * control transitions by event and outcome, the current state as a gauge, process metrics, and the
 * trading process's metrics (published through the store) merged in: both processes' default
 * metrics share one family per name, told apart by the `process` label (exposition.ts). The
 * notifier's backlog comes from its status document (`tcs notify` writes it every round) as
 * timestamps, so Prometheus judges the ages (`time() - …`) and no duration is computed here.
 * `metricsPlugin` opens the registry, shares it as the `metrics` decoration and clears it on close.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SYSTEM_STATES } from '../domain/control.js';
import { NOTIFIER_STATUS_KEY, TRADING_METRICS_KEY } from '../domain/runtime-documents.js';
import type { NotifierStatus } from '../domain/runtime-documents.js';
import { readDocument } from '../ports/documents.js';
import type { Store } from '../ports/store.js';
import { mergeExpositions } from './exposition.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ApiMetrics;
  }
}

export const METRICS_PLUGIN = 'tcs-metrics';

export const metricsPlugin = fp<{ store: Store }>(
  async (app, { store }) => {
    const metrics = createApiMetrics(store);
    app.decorate('metrics', metrics);
    instrumentRequests(app, metrics.registry);
    app.addHook('onClose', async () => metrics.registry.clear());
  },
  { name: METRICS_PLUGIN, fastify: '5.x' },
);

export interface ApiMetrics {
  registry: Registry;
  controlCalls: Counter<'event' | 'outcome'>;
  /** The whole exposition text: this process and the trading process's last published text, merged. */
  render(): Promise<string>;
}

function createApiMetrics(store: Store): ApiMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ process: 'api' });
  collectDefaultMetrics({ register: registry });

  const controlCalls = new Counter({
    name: 'tcs_control_calls_total',
    help: 'Control calls offered to the control statechart, by event and outcome (changed, unchanged, refused)',
    labelNames: ['event', 'outcome'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'tcs_system_state',
    help: 'Current system state (1 for the current state, 0 otherwise), read from the store at scrape time',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      try {
        const { state } = await store.control.read();
        for (const s of SYSTEM_STATES) this.set({ state: s }, s === state ? 1 : 0);
      } catch {
        this.reset(); // store unreachable: report no state rather than a stale one
      }
    },
  });

  const notifier = notifierGauges(registry);

  return {
    registry,
    controlCalls,
    async render() {
      notifier.show(await readDocument(store.kv, NOTIFIER_STATUS_KEY).catch(() => null));
      const own = await registry.metrics();
      // Best effort: an unreadable or refused document (malformed, another version) leaves out the
      // trading process's figures; /health says whether the trading process is there.
      const trading = await readDocument(store.kv, TRADING_METRICS_KEY).catch(() => null);
      return mergeExpositions(trading?.text ? [own, trading.text] : [own]);
    },
  };
}

/** The notifier's figures from its status document; no samples when none is readable (no notifier, or refused). */
function notifierGauges(registry: Registry) {
  const backlog = new Gauge({
    name: 'tcs_notify_backlog',
    help: 'Notification deliveries waiting for their receiver, by target (tcs notify)',
    labelNames: ['target'] as const,
    registers: [registry],
  });
  const lastRound = new Gauge({
    name: 'tcs_notify_last_round_timestamp_seconds',
    help: 'When tcs notify last finished a round (unix seconds; 0 when no notifier has run on this store): time() minus it is its silence',
    registers: [registry],
  });
  const oldest = new Gauge({
    name: 'tcs_notify_oldest_pending_timestamp_seconds',
    help: 'When the event of the oldest waiting delivery happened (unix seconds); 0 when nothing waits',
    registers: [registry],
  });
  return {
    show(status: NotifierStatus | null) {
      backlog.reset();
      lastRound.reset();
      oldest.reset();
      if (status === null) return;
      for (const t of status.targets) backlog.set({ target: t.id }, t.pending);
      lastRound.set(status.ts / 1000);
      if (status.oldestPendingAt !== null) oldest.set(status.oldestPendingAt / 1000);
    },
  };
}

/** Counts and times every request by route pattern (not raw URL, to keep label cardinality bounded). */
function instrumentRequests(app: FastifyInstance, registry: Registry): void {
  const requests = new Counter({
    name: 'tcs_http_requests_total',
    help: 'HTTP requests by method, route and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'tcs_http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
