/**
 * Public routes: /health (per-component status, checked in health.ts; 503 when the store cannot
 * serve a kill) and /metrics (Prometheus text). No authentication, and nothing secret in either.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import { HealthSchema, healthChecker } from '../health.js';
import type { HealthStoreView } from '../store-view.js';

/** Needs the metrics plugin's `metrics` decoration (registered before, in app.ts). */
export const publicRoutes: FastifyPluginAsyncTypebox<{
  store: Store;
  clock: Clock;
  storeView?: HealthStoreView;
}> = async (app, { store, clock, storeView }) => {
  const health = healthChecker(store, clock, undefined, storeView);
  app.get(
    '/health',
    {
      schema: {
        tags: ['public'],
        summary: 'System health with per-component status',
        description:
          '200 when ok or degraded (e.g. the trading process is not running or its heartbeat is older than 3 of its intervals). ' +
          '503 when the store is unreachable, hung, refuses a write (read-only, locked) or is not the store it was (empty): ' +
          '`components.store.reason` and `error` say which, and `resolve` the command that ends it. ' +
          'Any answer that is not ok says why in `reason`. A store nobody has initialised yet is 503 with store reason ' +
          '`not_initialised` (resolve: `tcs store init`; `tcs start` runs it before serving), as every control route ' +
          'is 503 then: /health and the control routes never disagree. Always answers within 1 s.',
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (_request, reply) => {
      const { statusCode, body } = await health.check();
      return reply.code(statusCode).send(body);
    },
  );

  app.get(
    '/metrics',
    {
      schema: {
        tags: ['public'],
        summary: 'Prometheus metrics (text exposition format)',
        produces: ['text/plain'],
        response: { 200: Type.String({ description: 'Prometheus text, this process then the trading process' }) },
      },
    },
    async (_request, reply) => reply.type(app.metrics.registry.contentType).send(await app.metrics.render()),
  );
};
