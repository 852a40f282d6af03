/**
 * How GET /control/events appears in the OpenAPI document: a `text/event-stream` response whose
 * event names and data shapes are described in the text (OpenAPI 3.0 has no vocabulary for the
 * messages of a stream), and the Last-Event-ID header a reconnecting client sends.
 */
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { SystemStateSchema } from '../schemas.js';

export const LAST_EVENT_ID_PATTERN = '^\\s*\\d{1,15}(\\.\\d{1,6})?\\s*$';

export const EventsHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      pattern: LAST_EVENT_ID_PATTERN,
      description:
        'The `id` of the last message received (browsers send it when they reconnect). The audit entries ' +
        'after it are replayed, oldest first and without duplicates, before live events.',
    }),
  ),
});

/**
 * The `heartbeat` event's data (and the snapshot's `heartbeat`): the trading process's heartbeat
 * document as the stream shows it. The console's Heartbeat type is this schema's Static type.
 */
export const HeartbeatEventSchema = Type.Object({
  cycle: Type.Integer({ minimum: 0 }),
  epoch: Type.Integer({ minimum: 0 }),
  state: SystemStateSchema,
  ts: Type.String({ format: 'date-time' }),
  last_cycle_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  halt: Type.Union([Type.String(), Type.Null()]),
  mode: Type.String(),
  stopped: Type.Boolean(),
});
export type HeartbeatEventData = Static<typeof HeartbeatEventSchema>;

const EVENTS_TEXT = [
  'Server-Sent Events, one JSON object per `data:` line. Every message has an `id:`:',
  'the audit seq for audit-backed events (`42`; the fills of decision 42 are `42.1`, `42.2`, …), and for',
  'the others the id of the last audit-backed message sent before them, so resuming from any id is exact.',
  'Heartbeat, health, machines and snapshot messages are not replayed: `snapshot` (sent first on every',
  'connection) carries the current ones. A `: keep-alive` comment comes every 15 s. A client that does not read is',
  'disconnected once 1 MiB waits for it; it reconnects with `Last-Event-ID`.',
  '',
  '| event | data |',
  '|---|---|',
  '| `snapshot` | `{control: {state, epoch, reason, changed_at}, heartbeat, health, machines, cursor, resumed_from}` |',
  '| `control` | `{seq, at, state, epoch, reason, changed_at, from, event, actor}` (a state change) |',
  '| `heartbeat` | `{cycle, epoch, state, ts, last_cycle_at, halt, mode, stopped}` (trading process) |',
  '| `decision` | `{seq, at, cycle, epoch, symbol, outcome, orders, submitted}` (full entry: /reports/decisions) |',
  '| `fill` | `{seq, at, cycle, client_order_id, symbol, side, filled_qty, avg_fill_price, venue_status}`: a fill at submission (of decision `seq`); a fill between cycles (an `order_filled` entry: a resting order, an exchange stop, one found by a cancel) has `cycle` and `venue_status` null, `filled_qty`/`avg_fill_price` of that fill, and adds `source` and `filled_at` |',
  '| `command` | `{seq, at, command_id, type, symbol, status, result}` (a command the trading process ran) |',
  '| `machines` | `{published_at, cycle, active: {trading, cycle, order-manager}}`: the active StateNode ids of the root, the current cycle ([] when none) and the order manager, as the trading process published them (at most every 100 ms; sent when they changed; trees: GET /control/machines) |',
  '| `health` | the body of GET /health, sent when a status in it changes |',
  '| `audit` | `{seq, at, kind, symbol}` (any other audit entry: control calls, cancels, halts, …) |',
].join('\n');

export const EventsResponse = {
  description: EVENTS_TEXT,
  content: {
    'text/event-stream': {
      schema: {
        type: 'string',
        example:
          'id: 42\nevent: control\ndata: {"seq":42,"at":"2025-01-01T00:00:00.000Z","state":"paused","epoch":3,' +
          '"reason":"maintenance","changed_at":"2025-01-01T00:00:00.000Z","from":"running","event":"control.pause","actor":"k_1a2b"}\n\n',
      },
    },
  },
};
