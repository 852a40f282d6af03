/**
 * GET /health's check: the store (a round trip, the control record and a REAL write), the event
 * store and the trading heartbeat, all at once and under one deadline for the whole check, so the
 * answer comes within a second however the store fails (refused, hung, locked, read-only, empty).
 *
 * The write probe overwrites one small key (`api:health-probe` in the key-value store) on each
 * check: a store that answers reads but refuses writes (a read-only file or replica, out of memory,
 * a lock held past the busy timeout) cannot record a kill, so it is down, not ok. Concurrent checks
 * share one probe in flight, so a burst of /health costs one write, not one per request.
 *
 * Every answer that is not `ok` says why in `reason` (health-reason.ts), and a store fault names the
 * command that ends it (`resolve`). A store with no control record and no audit trail that nobody is
 * known to have seen (store-view.ts) is a first start in progress for FIRST_START_GRACE_MS after the
 * API started: 200 `degraded`, store `not_initialised`, not a fault (the API listens before the
 * trading process creates the record); after that, or seen by anyone, it is the `empty` fault.
 *
 * From the heartbeat also: the strategies failing now (strategy-health.ts) and the risk engine's
 * trading state (risk-health.ts); a failing strategy or a `reducing` risk engine is `degraded`.
 */
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { DocumentError } from '../domain/documents/document-error.js';
import { HEARTBEAT_KEY, heartbeatStaleAfterMs } from '../domain/runtime-documents.js';
import type { Clock } from '../ports/clock.js';
import { monotonicNow } from '../ports/clock.js';
import { readDocument } from '../ports/documents.js';
import { StoreFaultError, isStoreFailure } from '../ports/store-errors.js';
import type { Store } from '../ports/store.js';
import { healthReason } from './health-reason.js';
import { riskHealth, RiskHealthSchema, UNKNOWN_RISK } from './risk-health.js';
import { SystemStateSchema } from './schemas.js';
import { NO_STORE_VIEW } from './store-view.js';
import type { HealthStoreView } from './store-view.js';
import { strategiesHealth, StrategiesHealthSchema, UNKNOWN_STRATEGIES } from './strategy-health.js';
import { UNKNOWN_VENUE, venueHealth, VenueHealthSchema } from './venue-health.js';

/** The whole check's deadline: under the 1 s promise, above one store command's (STORE_TIMEOUT_MS 500 ms). */
export const HEALTH_DEADLINE_MS = 900;
export const HEALTH_PROBE_KEY = 'api:health-probe';
/** How long after the API started an uninitialised store is taken for a first start in progress. */
export const FIRST_START_GRACE_MS = 30_000;

const Status = Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]);
const ComponentStatus = Type.Union([
  Type.Literal('ok'),
  Type.Literal('stale'),
  Type.Literal('unknown'),
  Type.Literal('down'),
]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const Resolve = Type.Optional(Type.String({ description: 'The command that ends this fault' }));

export const HealthSchema = Type.Object({
  status: Status,
  reason: Type.Optional(Type.String({ description: 'Why the status is not ok, in words' })),
  state: Type.Union([SystemStateSchema, Type.Null()]),
  checked_at: Type.String({ format: 'date-time' }),
  components: Type.Object({
    store: Type.Object({
      status: ComponentStatus,
      kind: Type.String(),
      latency_ms: Nullable(Type.Number()),
      reason: Type.Optional(
        Type.String({
          description:
            'Why the store is down: unreachable, write_refused, deadline (no answer in time), or a fault (empty, replaced, rolled_back); ' +
            'not_initialised (status ok) while a first start creates its control record',
        }),
      ),
      error: Type.Optional(Type.String()),
      resolve: Resolve,
    }),
    event_store: Type.Object({ status: ComponentStatus, entries: Nullable(Type.Integer()) }),
    trading_process: Type.Object({
      status: ComponentStatus,
      heartbeat_age_ms: Nullable(Type.Number()),
      last_cycle: Nullable(Type.Integer()),
      mode: Nullable(Type.String()),
      clock_step: Type.Optional(
        Type.Object(
          { step_ms: Type.Number(), at: Type.String({ format: 'date-time' }) },
          {
            description:
              "The last step of the trading process's wall clock (ms, negative back; at: its wall time after it). " +
              'Halts and leases are measured on the monotonic clock and are not affected; timestamps are.',
          },
        ),
      ),
      reason: Type.Optional(
        Type.String({
          description:
            'Why the status is not ok when known: a heartbeat stored but refused (malformed, another version), ' +
            'or the store fault the trading process on this host waits on (judged against its latch)',
        }),
      ),
      resolve: Resolve,
    }),
    strategies: StrategiesHealthSchema,
    venue: VenueHealthSchema,
    risk: RiskHealthSchema,
  }),
});

export type Health = Static<typeof HealthSchema>;

export interface HealthChecker {
  check(): Promise<{ statusCode: 200 | 503; body: Health }>;
}

export function healthChecker(
  store: Store,
  clock: Clock,
  deadlineMs = HEALTH_DEADLINE_MS,
  view: HealthStoreView = NO_STORE_VIEW,
): HealthChecker {
  // The first-start grace is a duration: on the monotonic clock, which a step of the wall clock does not move.
  const startedAt = monotonicNow(clock);
  let probeInFlight: Promise<void> | null = null;
  const probeWrite = () => {
    probeInFlight ??= store.kv.set(HEALTH_PROBE_KEY, { ts: clock.now() }).finally(() => {
      probeInFlight = null;
    });
    return probeInFlight;
  };

  return {
    async check() {
      const checkedAt = new Date(clock.now()).toISOString();
      const down = (reason: string, error: string, resolve?: string) => ({
        statusCode: 503 as const,
        body: withReason(downBody(store.kind, checkedAt, reason, error, resolve)),
      });
      const all = Promise.allSettled([
        store.ping(),
        store.control.read(),
        probeWrite(),
        store.events.count(),
        readDocument(store.kv, HEARTBEAT_KEY),
      ] as const);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), deadlineMs)));
      const inTime = <T>(work: Promise<T>) => Promise.race([work, late]);
      const settled = await inTime(all);
      if (settled === 'late') {
        clearTimeout(timer);
        return down('deadline', `the store did not answer within ${deadlineMs} ms`);
      }

      const [ping, record, probe, entries, heartbeat] = settled;
      // The first failure in this order names the reason: no round trip, no readable record, no write.
      if (ping.status === 'rejected' || record.status === 'rejected' || probe.status === 'rejected') {
        const [part, err]: [string, unknown] =
          ping.status === 'rejected'
            ? ['unreachable', ping.reason]
            : record.status === 'rejected'
              ? ['unreachable', record.reason]
              : ['write_refused', (probe as PromiseRejectedResult).reason];
        if (!isStoreFailure(err)) {
          clearTimeout(timer);
          throw err; // a bug: a 500 through the error handler
        }
        const firstStart =
          err instanceof StoreFaultError &&
          err.kind === 'empty' &&
          ping.status === 'fulfilled' &&
          probe.status === 'fulfilled' &&
          entries.status === 'fulfilled' &&
          entries.value === 0 &&
          monotonicNow(clock) - startedAt < FIRST_START_GRACE_MS &&
          (await inTime(view.mayBeFirstStart().catch(() => false))) === true;
        clearTimeout(timer);
        if (firstStart) return { statusCode: 200, body: withReason(firstStartBody(store.kind, checkedAt, ping.value)) };
        return down(
          err instanceof StoreFaultError ? err.kind : part,
          err.message,
          err instanceof StoreFaultError ? view.adoptCommand : undefined,
        );
      }

      const beat = heartbeat.status === 'fulfilled' ? heartbeat.value : null;
      // A stored heartbeat that is not one (malformed, another version) says nothing about the
      // trading process: unknown, with the reason, never judged as if it were data.
      const refused = heartbeat.status === 'rejected' && heartbeat.reason instanceof DocumentError;
      const age = beat ? Math.max(0, clock.now() - beat.ts) : null;
      const tradingStatus: Health['components']['trading_process']['status'] =
        beat === null || age === null ? 'unknown' : age > heartbeatStaleAfterMs(beat) ? 'stale' : 'ok';
      // A trading process that does not beat may be waiting on a store fault only its latch shows.
      const fault = tradingStatus === 'ok' ? null : await inTime(view.tradingFault().catch(() => null));
      clearTimeout(timer);
      const waitingOn = fault instanceof StoreFaultError ? fault : null;
      const count = entries.status === 'fulfilled' ? entries.value : null;
      const eventStatus = count === null ? 'down' : 'ok';
      const strategies = strategiesHealth(beat, tradingStatus === 'ok');
      const risk = riskHealth(beat, tradingStatus === 'ok');
      const venue = venueHealth(beat, tradingStatus === 'ok');
      const allOk =
        tradingStatus === 'ok' &&
        eventStatus === 'ok' &&
        strategies.status !== 'failing' &&
        risk.status !== 'reducing' &&
        venue.status !== 'drift';
      const body: Health = {
        status: allOk ? 'ok' : 'degraded',
        state: record.value.state,
        checked_at: checkedAt,
        components: {
          store: { status: 'ok', kind: store.kind, latency_ms: Number(ping.value.toFixed(3)) },
          event_store: { status: eventStatus, entries: count },
          trading_process: {
            status: tradingStatus,
            heartbeat_age_ms: age,
            last_cycle: beat?.lastCycle ?? null,
            mode: beat?.mode ?? null,
            ...(beat?.clockStep
              ? { clock_step: { step_ms: beat.clockStep.stepMs, at: new Date(beat.clockStep.at).toISOString() } }
              : {}),
            ...(refused ? { reason: (heartbeat.reason as DocumentError).message } : {}),
            ...(waitingOn ? { reason: `not trading: ${waitingOn.message}`, resolve: view.adoptCommand } : {}),
          },
          strategies,
          risk,
          venue,
        },
      };
      return { statusCode: 200, body: withReason(body) };
    },
  };
}

function withReason(body: Health): Health {
  const reason = healthReason(body);
  if (reason === null) return body;
  const { status, ...rest } = body;
  return { status, reason, ...rest }; // right after the status it explains
}

function firstStartBody(kind: string, checkedAt: string, latencyMs: number): Health {
  return {
    status: 'degraded',
    state: null,
    checked_at: checkedAt,
    components: {
      store: { status: 'ok', kind, latency_ms: Number(latencyMs.toFixed(3)), reason: 'not_initialised' },
      event_store: { status: 'ok', entries: 0 },
      trading_process: { status: 'unknown', heartbeat_age_ms: null, last_cycle: null, mode: null },
      strategies: UNKNOWN_STRATEGIES,
      risk: UNKNOWN_RISK,
      venue: UNKNOWN_VENUE,
    },
  };
}

function downBody(kind: string, checkedAt: string, reason: string, error: string, resolve?: string): Health {
  return {
    status: 'down',
    state: null,
    checked_at: checkedAt,
    components: {
      store: { status: 'down', kind, latency_ms: null, reason, error, ...(resolve ? { resolve } : {}) },
      event_store: { status: 'unknown', entries: null },
      trading_process: { status: 'unknown', heartbeat_age_ms: null, last_cycle: null, mode: null },
      strategies: UNKNOWN_STRATEGIES,
      risk: UNKNOWN_RISK,
      venue: UNKNOWN_VENUE,
    },
  };
}
