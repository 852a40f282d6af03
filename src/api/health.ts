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
 * command that ends it (`resolve`). A store with no control record cannot record a kill, so /health
 * says 503, as every control route does (issue 30: /health said 200 "first start" while the kill was
 * refused 503). Nobody known to have seen it (store-view.ts) and no audit trail: `not_initialised`,
 * resolved by `tcs store init` (which `tcs start` runs before anything serves, so under it this is never
 * seen); seen by anyone: the `empty` fault, resolved only by an adoption.
 *
 * From the heartbeat also: the strategies failing now (strategy-health.ts) and the risk engine's
 * trading state (risk-health.ts), the orphaned positions (position-health.ts), market data too
 * old to trade (market-health.ts) and the exchange request weight (venue-health.ts); a failing
 * strategy, a `reducing` risk engine, an orphaned position, stale market data or requests held for
 * the request weight is `degraded`. From the notifier's status document: its backlog
 * (notifier-health.ts), shown but never degrading the answer.
 */
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { DocumentError } from '../domain/documents/document-error.js';
import { HEARTBEAT_KEY, NOTIFIER_STATUS_KEY, heartbeatStaleAfterMs } from '../domain/runtime-documents.js';
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
import { PositionsHealthSchema, positionsHealth, UNKNOWN_POSITIONS } from './position-health.js';
import { MarketDataHealthSchema, marketDataHealth, UNKNOWN_MARKET_DATA } from './market-health.js';
import { NotifierHealthSchema, notifierHealth, UNKNOWN_NOTIFIER } from './notifier-health.js';

/** The whole check's deadline: under the 1 s promise, above one store command's (STORE_TIMEOUT_MS 500 ms). */
export const HEALTH_DEADLINE_MS = 900;
export const HEALTH_PROBE_KEY = 'api:health-probe';
/** What ends a store that nobody has initialised yet (never `tcs store adopt`: nothing was lost). */
export const INIT_COMMAND = 'tcs store init';

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
            'Why the store is down: unreachable, write_refused, deadline (no answer in time), evicting (a Redis that may evict our keys), ' +
            'or a fault (empty, replaced, rolled_back, tampered); ' +
            'not_initialised (no control record and nobody on this host has seen the store: `tcs store init` creates it)',
        }),
      ),
      error: Type.Optional(Type.String()),
      resolve: Resolve,
    }),
    event_store: Type.Object({ status: ComponentStatus, entries: Nullable(Type.Integer()) }),
    trading_process: Type.Object({
      /** `halted`: it beats but has stopped opening exposure for safety (`reason` says why). */
      status: Type.Union([...ComponentStatus.anyOf, Type.Literal('halted')]),
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
            'the store fault the trading process on this host waits on (judged against its latch), ' +
            'or the safety halt it is in (`halted (<reason>): <cause>`, e.g. control_plane_lost, store_write_refused, latch_unwritable, clock_skew)',
        }),
      ),
      resolve: Resolve,
    }),
    strategies: StrategiesHealthSchema,
    venue: VenueHealthSchema,
    risk: RiskHealthSchema,
    positions: PositionsHealthSchema,
    market_data: MarketDataHealthSchema,
    notifier: NotifierHealthSchema,
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
  let probeInFlight: Promise<void> | null = null;
  const standing = beatWatch(clock);
  const notifierStanding = beatWatch(clock);
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
        store.evictionRisk(),
        readDocument(store.kv, NOTIFIER_STATUS_KEY),
      ] as const);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), deadlineMs)));
      const inTime = <T>(work: Promise<T>) => Promise.race([work, late]);
      const settled = await inTime(all);
      if (settled === 'late') {
        clearTimeout(timer);
        return down('deadline', `the store did not answer within ${deadlineMs} ms`);
      }

      const [ping, record, probe, entries, heartbeat, eviction, notifierStatus] = settled;
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
        const notInitialised =
          err instanceof StoreFaultError &&
          err.kind === 'empty' &&
          ping.status === 'fulfilled' &&
          probe.status === 'fulfilled' &&
          entries.status === 'fulfilled' &&
          entries.value === 0 &&
          (await inTime(view.mayBeFirstStart().catch(() => false))) === true;
        clearTimeout(timer);
        if (notInitialised)
          return down(
            'not_initialised',
            'the store has no control record yet and nothing on this host has seen it: nobody initialised it, ' +
              'so no kill or pause can be recorded until it is (`tcs start` does it before it starts the processes)',
            INIT_COMMAND,
          );
        return down(
          err instanceof StoreFaultError ? err.kind : part,
          err.message,
          err instanceof StoreFaultError ? view.adoptCommand : undefined,
        );
      }

      // A store that works now but may evict what we write (the audit trail, the control record)
      // is down on every check until fixed: losing entries silently is worse than an alarm.
      if (eviction.status === 'rejected' && !isStoreFailure(eviction.reason)) {
        clearTimeout(timer);
        throw eviction.reason;
      }
      if (eviction.status === 'rejected') {
        clearTimeout(timer);
        return down('unreachable', (eviction.reason as Error).message);
      }
      if (eviction.value !== null) {
        clearTimeout(timer);
        return down('evicting', eviction.value);
      }

      const beat = heartbeat.status === 'fulfilled' ? heartbeat.value : null;
      // A stored heartbeat that is not one (malformed, another version) says nothing about the
      // trading process: unknown, with the reason, never judged as if it were data.
      const refused = heartbeat.status === 'rejected' && heartbeat.reason instanceof DocumentError;
      const age = beat ? standing.age(beat) : null;
      const beating: 'unknown' | 'stale' | 'ok' =
        beat === null || age === null ? 'unknown' : age > heartbeatStaleAfterMs(beat) ? 'stale' : 'ok';
      // A process that beats while halted for safety opens nothing: monitoring must see that, not "ok".
      const halt = beating === 'ok' && beat?.halt ? beat.halt : null;
      const tradingStatus: Health['components']['trading_process']['status'] = halt ? 'halted' : beating;
      // A trading process that does not beat may be waiting on a store fault only its latch shows.
      const fault = beating === 'ok' ? null : await inTime(view.tradingFault().catch(() => null));
      clearTimeout(timer);
      const waitingOn = fault instanceof StoreFaultError ? fault : null;
      const count = entries.status === 'fulfilled' ? entries.value : null;
      const eventStatus = count === null ? 'down' : 'ok';
      const strategies = strategiesHealth(beat, beating === 'ok');
      const risk = riskHealth(beat, beating === 'ok');
      const venue = venueHealth(beat, beating === 'ok');
      const positions = positionsHealth(beat, beating === 'ok');
      const marketData = marketDataHealth(beat, beating === 'ok');
      // Unreadable (malformed, another version): unknown, never judged as data.
      const notice = notifierStatus.status === 'fulfilled' ? notifierStatus.value : undefined;
      const notifier =
        notice === undefined
          ? UNKNOWN_NOTIFIER
          : notifierHealth(notice, notice ? notifierStanding.age({ pid: 0, ts: notice.ts }) : null, clock.now());
      const allOk =
        tradingStatus === 'ok' &&
        eventStatus === 'ok' &&
        strategies.status !== 'failing' &&
        risk.status !== 'reducing' &&
        venue.status !== 'drift' &&
        // Openings held for the request weight: nothing new trades until the minute rolls.
        (venue.request_weight?.holding ?? 'none') === 'none' &&
        positions.status !== 'orphaned' &&
        marketData.status !== 'stale';
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
            ...(halt ? { reason: `halted (${halt}): ${beat?.haltMessage ?? 'no cause recorded'}` } : {}),
            ...(waitingOn ? { reason: `not trading: ${waitingOn.message}`, resolve: view.adoptCommand } : {}),
          },
          strategies,
          risk,
          venue,
          positions,
          market_data: marketData,
          notifier,
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
      positions: UNKNOWN_POSITIONS,
      market_data: UNKNOWN_MARKET_DATA,
      notifier: UNKNOWN_NOTIFIER,
    },
  };
}

/**
 * How old the trading heartbeat is, as this process can tell: the wall clocks' difference (clamped
 * at zero), but never less than how long this process has watched the same beat stand still on its
 * monotonic clock. The wall difference alone read a dead trader's last beat as 0 ms old for an hour
 * after this host's clock stepped back an hour (issue 30, finding 2); a beat that keeps changing is
 * alive whatever the clocks say, and one that stands still ages here at the pace of real time. A
 * forward step can only make a beat look older (an alarm, never a false `ok`).
 */
function beatWatch(clock: Clock) {
  let marker: string | null = null;
  let firstSeenAt = 0;
  return {
    age(beat: { pid: number; ts: number; host?: string | undefined }): number {
      const now = monotonicNow(clock);
      const current = `${beat.host ?? ''}:${beat.pid}:${beat.ts}`;
      if (current !== marker) {
        marker = current;
        firstSeenAt = now;
      }
      return Math.max(0, clock.now() - beat.ts, now - firstSeenAt);
    },
  };
}
