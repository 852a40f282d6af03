/**
 * /health's `notifier` component (issue 35): what `tcs notify` reports after each round — the
 * deliveries waiting, how old the oldest waiting event is, and each target's pending count and last
 * error. `none`: no notifier has ever written on this store (none configured). `stale`: it stopped
 * writing for three rounds (the process is gone or stuck). `backlog`: a delivery has waited longer
 * than NOTIFIER_BACKLOG_MS (a receiver down or refusing). A notifier never blocks trading or control,
 * so none of these changes the answer's overall status: they are for the operator and the alert
 * rules (deploy/prometheus/alerts.yml), not a reason to call the trading service degraded.
 */
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { NotifierStatus } from '../domain/runtime-documents.js';

/** A delivery waiting longer than this is a backlog: a minute is many retries, and no notice arrives late by design. */
export const NOTIFIER_BACKLOG_MS = 60_000;
/** Rounds missed before the notifier counts as stale. */
const STALE_ROUNDS = 3;
/** The least staleness bar, so a fast round does not make a busy store look like a dead notifier. */
const STALE_FLOOR_MS = 5_000;

export const NotifierHealthSchema = Type.Object(
  {
    status: Type.Union([
      Type.Literal('ok'),
      Type.Literal('backlog'),
      Type.Literal('stale'),
      Type.Literal('none'),
      Type.Literal('unknown'),
    ]),
    backlog: Type.Union([Type.Integer(), Type.Null()], { description: 'Deliveries waiting for their receiver' }),
    oldest_pending_age_ms: Type.Union([Type.Number(), Type.Null()], {
      description: 'How long ago the oldest waiting event happened (null: nothing waits)',
    }),
    status_age_ms: Type.Union([Type.Number(), Type.Null()], {
      description: 'How long ago the notifier last reported (null: never)',
    }),
    targets: Type.Array(
      Type.Object({
        id: Type.String({ description: 'The target id (hook1, …), never its URL' }),
        pending: Type.Integer(),
        last_error: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
  },
  {
    description:
      '`tcs notify` (webhooks): `none` when no notifier runs on this store, `stale` when it stopped reporting, `backlog` when a delivery has waited more than a minute. Informational: it never makes the answer degraded, since a notifier never blocks trading or control.',
  },
);

export type NotifierHealth = Static<typeof NotifierHealthSchema>;

export const UNKNOWN_NOTIFIER: NotifierHealth = {
  status: 'unknown',
  backlog: null,
  oldest_pending_age_ms: null,
  status_age_ms: null,
  targets: [],
};

/**
 * The component from the notifier's status document (null: never written). `ageMs` is how long ago
 * it last changed, as the API measures it (monotonic, health.ts); `nowMs` the wall time, against the
 * oldest waiting event's timestamp.
 */
export function notifierHealth(status: NotifierStatus | null, ageMs: number | null, nowMs: number): NotifierHealth {
  if (status === null) return { ...UNKNOWN_NOTIFIER, status: 'none' };
  const oldest = status.oldestPendingAt === null ? null : Math.max(0, nowMs - status.oldestPendingAt);
  const stale = ageMs !== null && ageMs > Math.max(STALE_FLOOR_MS, STALE_ROUNDS * status.intervalMs);
  return {
    status: stale ? 'stale' : oldest !== null && oldest > NOTIFIER_BACKLOG_MS ? 'backlog' : 'ok',
    backlog: status.backlog,
    oldest_pending_age_ms: oldest,
    status_age_ms: ageMs,
    targets: status.targets.map((t) => ({ id: t.id, pending: t.pending, last_error: t.lastError })),
  };
}
