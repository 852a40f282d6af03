/**
 * The API as one Fastify plugin, and the server options it needs when the instance is created.
 * The API process (runtime/api-process.ts) creates the instance, registers this plugin and listens;
 * tests and benches do the same through create-api.ts. Wrapped with fastify-plugin so its error
 * handler, 404 handler, parsers and validator apply to the instance it is registered into.
 * Public routes (and the operator console's page at /) at the root; /control and /reports inside
 * one scope guarded by bearer auth.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { ControlPlane } from '../application/control-plane.js';
import type { Instrument } from '../domain/market.js';
import type { AuditArchive } from '../ports/audit-archive.js';
import type { Clock } from '../ports/clock.js';
import { systemClock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import { authPlugin } from './auth.js';
import { clientErrorHandler } from './client-errors.js';
import { consoleAssetsDir, consolePlugin } from './console/console-plugin.js';
import { docsPlugin } from './docs.js';
import { createDocumentFaultLog } from './document-faults.js';
import { installErrorHandlers } from './errors.js';
import { installJsonParser } from './json-parser.js';
import { metricsPlugin } from './metrics.js';
import { rateLimitPlugin } from './rate-limit.js';
import { requestLogPlugin } from './request-log.js';
import type { RequestLog } from './request-log.js';
import type { HealthStoreView } from './store-view.js';
import { consoleDataRoutes } from './routes/console-data.js';
import { controlRoutes } from './routes/control.js';
import { flattenRoutes } from './routes/flatten.js';
import { riskRoutes } from './routes/risk.js';
import type { EventStreamOptions } from './routes/events.js';
import { eventRoutes } from './routes/events.js';
import { machineRoutes } from './routes/machines.js';
import { publicRoutes } from './routes/public.js';
import { reportRoutes } from './routes/reports.js';
import { formatSchemaErrors, strictValidatorCompiler } from './validation.js';

export interface ApiDeps {
  /** Opened and closed by whoever registers the plugin; the plugin only uses it. */
  store: Store;
  apiKeys: readonly string[];
  instruments: readonly Instrument[];
  defaultMode: string;
  /** EXECUTION_MODE=live: the exchange GET /control/mode names (no secret); absent or null in paper mode. */
  exchange?: { exchange: string; testnet: boolean } | null;
  /** Control POSTs per key per minute (kill-switch exempt). */
  controlRateLimit: number;
  /** COMMAND_QUEUE_MAX (DEFAULT_COMMAND_QUEUE_MAX when absent). */
  commandQueueMax?: number;
  /** How long a control change that keeps losing races is retried before 503 (default CONTROL_DEADLINE_MS). */
  controlDeadlineMs?: number;
  clock?: Clock;
  version?: string;
  /** Timers and per-client bounds of GET /control/events (defaults in src/api/events/). */
  eventStream?: Pick<EventStreamOptions, 'timings' | 'limits'>;
  /** The operator console's built assets; default dist/console of this checkout, null for none. */
  consoleRoot?: string | null;
  /** The request log given to apiServerOptions: refused requests are counted, not logged one by one. */
  requestLog?: RequestLog;
  /** What /health knows of the store beyond it (first start, the trading latch's verdict); default none. */
  storeView?: HealthStoreView;
  /**
   * The audit archive opened read-only (AUDIT_ARCHIVE_URL), for /reports/decisions below the store's
   * floor; null or absent: none, and a page that would need it says so. Opened and closed by the caller.
   */
  archive?: AuditArchive | null;
}

/**
 * A pino logger to use as is, `true` for Fastify's own (Authorization redacted), `false` for none.
 * `requestLog` replaces Fastify's request lines (request-log.ts); register the API plugin with the same one.
 */
export function apiServerOptions(
  logger: FastifyBaseLogger | boolean = false,
  requestLog?: RequestLog,
): FastifyServerOptions {
  const logging =
    typeof logger === 'object'
      ? { loggerInstance: logger }
      : { logger: logger ? { redact: ['req.headers.authorization'] } : false };
  return {
    ...logging,
    ...(requestLog ? { logController: requestLog } : {}),
    bodyLimit: 64 * 1024,
    // Keep-alive sockets must not hold a shutdown open.
    forceCloseConnections: true,
    return503OnClosing: true,
    // Errors of Node's HTTP parser get the standard body with a code too.
    clientErrorHandler,
  };
}

async function tcsApi(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const clock = deps.clock ?? systemClock;
  app.setValidatorCompiler(strictValidatorCompiler());
  app.setSchemaErrorFormatter(formatSchemaErrors);
  installJsonParser(app);
  const documentFaults = createDocumentFaultLog(app.log);
  installErrorHandlers(app, documentFaults);

  if (deps.requestLog) await app.register(requestLogPlugin, { requestLog: deps.requestLog });
  await app.register(authPlugin, { apiKeys: deps.apiKeys });
  await app.register(metricsPlugin, { store: deps.store });
  await app.register(docsPlugin, { version: deps.version ?? '0.1.0' });
  await app.register(rateLimitPlugin);

  const storeView = deps.storeView ? { storeView: deps.storeView } : {};
  await app.register(publicRoutes, { store: deps.store, clock, ...storeView });
  await app.register(consolePlugin, { root: deps.consoleRoot === undefined ? consoleAssetsDir() : deps.consoleRoot });

  const plane = new ControlPlane(
    deps.store,
    deps.instruments,
    clock,
    (r) => app.metrics.controlCalls.inc({ event: r.event.type, outcome: r.outcome }),
    deps.controlDeadlineMs,
    deps.commandQueueMax,
  );
  const symbols = deps.instruments.map((i) => i.symbol);
  await app.register(async (secured) => {
    secured.addHook('onRequest', secured.authenticate);
    await secured.register(controlRoutes, {
      prefix: '/control',
      plane,
      symbols,
      defaultMode: deps.defaultMode,
      exchange: deps.exchange ?? null,
      rateLimit: deps.controlRateLimit,
    });
    await secured.register(flattenRoutes, { prefix: '/control', plane, symbols });
    await secured.register(machineRoutes, { prefix: '/control', kv: deps.store.kv });
    await secured.register(riskRoutes, {
      prefix: '/control',
      store: deps.store,
      clock,
      rateLimit: deps.controlRateLimit,
    });
    await secured.register(eventRoutes, {
      prefix: '/control',
      store: deps.store,
      clock,
      ...storeView,
      ...deps.eventStream,
    });
    await secured.register(reportRoutes, {
      prefix: '/reports',
      events: deps.store.events,
      archive: deps.archive ?? null,
    });
    await secured.register(consoleDataRoutes, {
      store: deps.store,
      plane,
      instruments: deps.instruments,
      clock,
      documentFaults,
      archive: deps.archive ?? null,
    });
  });
}

export const api = fp(tcsApi, { name: 'tcs-api', fastify: '5.x' });
