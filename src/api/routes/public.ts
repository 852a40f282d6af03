/**
 * Public routes: /health (per-component status; 503 only when the store is unreachable) and
 * /metrics (Prometheus text). No authentication, and nothing secret in either.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { HEARTBEAT_KEY, HEARTBEAT_STALE_MS } from '../../domain/runtime-documents.js';
import type { TradingHeartbeat } from '../../domain/runtime-documents.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import { SystemStateSchema } from '../schemas.js';

const Status = Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]);
const ComponentStatus = Type.Union([
  Type.Literal('ok'),
  Type.Literal('stale'),
  Type.Literal('unknown'),
  Type.Literal('down'),
]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const HealthSchema = Type.Object({
  status: Status,
  state: Type.Union([SystemStateSchema, Type.Null()]),
  checked_at: Type.String({ format: 'date-time' }),
  components: Type.Object({
    store: Type.Object({
      status: ComponentStatus,
      kind: Type.String(),
      latency_ms: Nullable(Type.Number()),
      error: Type.Optional(Type.String()),
    }),
    event_store: Type.Object({ status: ComponentStatus, entries: Nullable(Type.Integer()) }),
    trading_process: Type.Object({
      status: ComponentStatus,
      heartbeat_age_ms: Nullable(Type.Number()),
      last_cycle: Nullable(Type.Integer()),
      mode: Nullable(Type.String()),
    }),
  }),
});

type Health = Static<typeof HealthSchema>;

/** Needs the metrics plugin's `metrics` decoration (registered before, in app.ts). */
export const publicRoutes: FastifyPluginAsyncTypebox<{ store: Store; clock: Clock }> = async (
  app,
  { store, clock },
) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['public'],
        summary: 'System health with per-component status',
        description:
          '200 when ok or degraded (e.g. the trading process is not running), 503 when the store cannot be reached.',
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (_request, reply) => {
      const checkedAt = new Date(clock.now()).toISOString();
      let latency: number;
      try {
        latency = await store.ping();
      } catch {
        const down: Health = {
          status: 'down',
          state: null,
          checked_at: checkedAt,
          components: {
            store: { status: 'down', kind: store.kind, latency_ms: null, error: 'store unreachable' },
            event_store: { status: 'unknown', entries: null },
            trading_process: { status: 'unknown', heartbeat_age_ms: null, last_cycle: null, mode: null },
          },
        };
        return reply.code(503).send(down);
      }
      const [record, entries, heartbeat] = await Promise.all([
        store.control.read(),
        store.events.count().catch(() => null),
        store.kv.get<TradingHeartbeat>(HEARTBEAT_KEY).catch(() => null),
      ]);
      const age = heartbeat ? Math.max(0, clock.now() - heartbeat.ts) : null;
      const tradingStatus: Health['components']['trading_process']['status'] =
        age === null ? 'unknown' : age > HEARTBEAT_STALE_MS ? 'stale' : 'ok';
      const eventStatus: Health['components']['event_store']['status'] = entries === null ? 'down' : 'ok';
      const health: Health = {
        status: tradingStatus === 'ok' && eventStatus === 'ok' ? 'ok' : 'degraded',
        state: record.state,
        checked_at: checkedAt,
        components: {
          store: { status: 'ok', kind: store.kind, latency_ms: Number(latency.toFixed(3)) },
          event_store: { status: eventStatus, entries },
          trading_process: {
            status: tradingStatus,
            heartbeat_age_ms: age,
            last_cycle: heartbeat?.lastCycle ?? null,
            mode: heartbeat?.mode ?? null,
          },
        },
      };
      return health;
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
