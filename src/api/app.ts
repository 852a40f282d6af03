/**
 * The Fastify application, built without listening (the API process and the tests both use it).
 * Public routes at the root; /control and /reports inside one scope guarded by bearer auth.
 */
import Fastify from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Instrument } from '../domain/market.js';
import type { Clock } from '../ports/clock.js';
import { systemClock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import { bearerAuth } from './auth.js';
import { ControlPlane } from './control-plane.js';
import { registerDocs } from './docs.js';
import { installErrorHandlers } from './errors.js';
import { installJsonParser } from './json-parser.js';
import { createApiMetrics, instrumentRequests } from './metrics.js';
import { controlRoutes } from './routes/control.js';
import { publicRoutes } from './routes/public.js';
import { reportRoutes } from './routes/reports.js';
import { formatSchemaErrors, strictValidatorCompiler } from './validation.js';

export interface ApiDeps {
  store: Store;
  apiKeys: readonly string[];
  instruments: readonly Instrument[];
  defaultMode: string;
  /** Control POSTs per key per minute (kill-switch exempt). */
  controlRateLimit: number;
  clock?: Clock;
  /** Fastify logger option; false in tests. */
  logger?: FastifyServerOptions['loggerInstance'] | boolean;
  version?: string;
}

export async function buildApp(deps: ApiDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock;
  const loggerOptions =
    typeof deps.logger === 'object'
      ? { loggerInstance: deps.logger }
      : { logger: deps.logger === true ? { redact: ['req.headers.authorization'] } : false };
  const app = Fastify({
    ...loggerOptions,
    bodyLimit: 64 * 1024,
    // Keep-alive sockets must not hold a shutdown open.
    forceCloseConnections: true,
    return503OnClosing: true,
    schemaErrorFormatter: formatSchemaErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(strictValidatorCompiler());
  installJsonParser(app);
  installErrorHandlers(app);
  app.decorateRequest('keyId', '');

  const metrics = createApiMetrics(deps.store);
  instrumentRequests(app, metrics.registry);
  await registerDocs(app, deps.version ?? '0.1.0');

  await app.register(rateLimit, {
    global: false, // only the routes that ask for it (see routes/control.ts)
    keyGenerator: (request) => request.keyId || request.ip,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'TCS_RATE_LIMITED',
      error: 'Too Many Requests',
      message: `at most ${context.max} control calls per ${context.after} per key; retry in ${Math.ceil(context.ttl / 1000)} s`,
    }),
  });

  await app.register(publicRoutes, { store: deps.store, metrics, clock });

  const plane = new ControlPlane(deps.store, deps.instruments, clock, (r) =>
    metrics.controlCalls.inc({ event: r.event.type, outcome: r.outcome }),
  );
  const symbols = deps.instruments.map((i) => i.symbol);
  await app.register(async (secured) => {
    secured.addHook('onRequest', bearerAuth(deps.apiKeys));
    await secured.register(controlRoutes, {
      prefix: '/control',
      plane,
      symbols,
      defaultMode: deps.defaultMode,
      rateLimit: deps.controlRateLimit,
    });
    await secured.register(reportRoutes, { prefix: '/reports', events: deps.store.events });
  });

  return app;
}
