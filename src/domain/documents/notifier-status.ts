/**
 * The notifier's status (NOTIFIER_STATUS_KEY), written by `tcs notify` after every round and read by
 * the API for /health and /metrics: how many deliveries wait, since when the oldest has waited, and
 * which targets are failing with their last error. A notifier that stops writing it is stale (three
 * intervals), so a dead notifier shows as one, not as an empty backlog. Targets are named by id,
 * never by URL (a URL may carry a token).
 */
import { Type } from 'typebox';

export const NotifierStatusSchema = Type.Object({
  /** Epoch ms of this round. */
  ts: Type.Number({ minimum: 0 }),
  /** How often rounds run, ms: the reader's staleness bar. */
  intervalMs: Type.Integer({ minimum: 1 }),
  /** Deliveries pending (not yet accepted by their receiver). */
  backlog: Type.Integer({ minimum: 0 }),
  /** Epoch ms at which the oldest pending delivery's event happened, or null with none pending. */
  oldestPendingAt: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  targets: Type.Array(
    Type.Object({
      id: Type.String(),
      pending: Type.Integer({ minimum: 0 }),
      /** The last failed attempt's error of its oldest pending delivery (HTTP 500, timeout, unreachable), or null. */
      lastError: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});
