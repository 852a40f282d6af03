/**
 * Request and response schemas (TypeBox), which serve three purposes at once: validation (422 on
 * failure), response serialization (unknown fields never leak) and the OpenAPI document. Symbol
 * fields are an enum of the whitelist, so an unknown symbol is a 422 and the docs list the choices.
 */
import { Type } from 'typebox';
import type { TSchema } from 'typebox';
import { REASON_MAX_LENGTH } from '../domain/control.js';
import { NOTIFICATION_KINDS } from '../domain/notifications/select.js';

/** A symbol's shape, as SYMBOLS accepts it (src/domain/instruments.ts). */
const SYMBOL_PATTERN = '^[A-Z0-9]{2,20}$';

export const ErrorSchema = Type.Object(
  {
    statusCode: Type.Integer(),
    code: Type.String(),
    error: Type.String(),
    message: Type.String(),
  },
  { $id: 'Error', description: "Fastify's standard error body" },
);

const errorRef = (description: string) => Type.Ref('Error', { description }) as unknown as TSchema;

/** The error responses every protected route can give. */
export const protectedErrors = {
  401: errorRef('Missing, malformed or invalid bearer token'),
  422: errorRef('Request validation failed (wrong type, unknown field, out of range)'),
  500: errorRef('Internal server error (no details are revealed)'),
  503: errorRef(
    'Nothing was done: the store is unavailable or not the one this service knew (TCS_STORE_*), or other ' +
      'writers kept changing the control record (TCS_CONTROL_CONTENDED, with Retry-After); press again',
  ),
};

/** Pause and resume when killed. */
export const conflict = { 409: errorRef('Refused in the current state (pause or resume when killed)') };

/** The throttled control POSTs. */
export const tooMany = { 429: errorRef('Too many control calls for this key; retry after the Retry-After header') };

export const SystemStateSchema = Type.Union([Type.Literal('running'), Type.Literal('paused'), Type.Literal('killed')], {
  description: 'running, paused or killed',
});

export const StatusSchema = Type.Object({
  state: SystemStateSchema,
  epoch: Type.Integer({ description: 'Increases by one on every state change' }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Reason given for the last change' }),
  changed_at: Type.String({ format: 'date-time' }),
});

export const TransitionResultSchema = Type.Object({
  state: SystemStateSchema,
  previous_state: SystemStateSchema,
  changed: Type.Boolean({ description: 'false when the call was accepted but the system was already there' }),
  epoch: Type.Integer(),
  reason: Type.Union([Type.String(), Type.Null()]),
  changed_at: Type.String({ format: 'date-time' }),
});

/** The optional `{reason}` body; `example` is what the docs pre-fill (a real reason, not "string"). */
export const ReasonBody = (defaultReason: string, example: string) =>
  Type.Object(
    {
      reason: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: REASON_MAX_LENGTH,
          description: `Why; defaults to "${defaultReason}"`,
          examples: [example],
        }),
      ),
    },
    { additionalProperties: false },
  );

/**
 * The kill switch's optional body: the spec's `reason`, and `flatten` (an addition): true also closes
 * every position reduce-only once the kill is recorded. The answer stays the spec's either way.
 */
export const KillSwitchBody = (defaultReason: string, example: string) =>
  Type.Object(
    {
      ...ReasonBody(defaultReason, example).properties,
      flatten: Type.Optional(
        Type.Boolean({
          default: false,
          description:
            'Also close every open position reduce-only (a flatten command, queued after the kill is recorded). Default false.',
        }),
      ),
    },
    { additionalProperties: false },
  );

export function symbolSchema(symbols: readonly string[]) {
  return Type.Enum([...symbols], { description: 'A whitelisted symbol' });
}

/**
 * A symbol to close (deleverage, flatten): checked for its shape only, never against the whitelist.
 * A position SYMBOLS no longer lists must stay closable; a symbol nobody holds answers "no position".
 */
export function closeSymbolSchema(symbols: readonly string[]) {
  return Type.String({
    pattern: SYMBOL_PATTERN,
    description: `Any symbol the account holds, whitelisted (${symbols.join(', ')}) or not`,
    examples: [symbols[0] ?? 'BTCUSDT'],
  });
}

export const CancelInstructionSchema = Type.Object({
  tool: Type.Union([Type.Literal('cancel_all_orders'), Type.Literal('cancel_spot_all_orders')]),
  symbol: Type.String(),
});

export const KillSwitchResultSchema = Type.Object({
  action: Type.Literal('killed'),
  reason: Type.String(),
  cancel_instructions: Type.Array(CancelInstructionSchema, { minItems: 1 }),
});

export function cancelAllBody(symbols: readonly string[]) {
  return Type.Object(
    {
      symbols: Type.Union([Type.Array(symbolSchema(symbols), { minItems: 1, uniqueItems: true }), Type.Null()], {
        description: 'Symbols to cancel, or null for every whitelisted symbol',
      }),
    },
    { additionalProperties: false },
  );
}

export const CancelAllResultSchema = Type.Object({
  action: Type.Literal('cancel_all'),
  cancel_instructions: Type.Array(CancelInstructionSchema),
  command_id: Type.String({ description: 'Id of the queued command the trading process carries out' }),
});

const REDUCE_PCT_HINT = 'a fraction of the position in (0, 1]; 50 % is 0.5';

/**
 * The spec's `reduce_pct`: a fraction of the position (0.5 = half), never a percentage, in the body
 * of POST /control/deleverage and the preview's query alike; an out-of-range value says the unit.
 */
export function reducePctSchema() {
  return Type.Number({
    exclusiveMinimum: 0,
    maximum: 1,
    description: 'Fraction of the position to close, in (0, 1]; 0.5 = half',
    // Appended to any validation error on the field (formatSchemaErrors in src/api/validation.ts).
    'x-hint': REDUCE_PCT_HINT,
  });
}

export function deleverageBody(symbols: readonly string[]) {
  return Type.Object(
    {
      symbol: closeSymbolSchema(symbols),
      reduce_pct: reducePctSchema(),
    },
    { additionalProperties: false },
  );
}

/** The reduce-only market order a deleverage prepares (and its preview shows). */
export const DeleverageOrderSchema = Type.Object({
  symbol: Type.String(),
  side: Type.Union([Type.Literal('BUY'), Type.Literal('SELL')]),
  qty: Type.Number(),
  type: Type.Literal('market'),
  reduce_only: Type.Literal(true),
});

export const DeleverageResultSchema = Type.Object({
  action: Type.Literal('deleverage'),
  symbol: Type.String(),
  reduce_pct: Type.Number(),
  position_qty: Type.Number({ description: 'Signed position in the last snapshot the trading process published' }),
  order: Type.Union([DeleverageOrderSchema, Type.Null()], {
    description: 'The prepared reduce-only order, or null when there is nothing to reduce',
  }),
  command_id: Type.Union([Type.String(), Type.Null()]),
  message: Type.String(),
});

export const ModeSchema = Type.Object({
  default_mode: Type.String({ description: 'Execution mode the trading process starts in (`paper` or `live`)' }),
  exchange: Type.Optional(
    Type.String({ description: 'Live mode only (not in the spec): the exchange (a ccxt id, e.g. binanceusdm)' }),
  ),
  testnet: Type.Optional(
    Type.Boolean({ description: "Live mode only (not in the spec): true on the exchange's testnet, false on mainnet" }),
  ),
});

export const DecisionsQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
    before: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Only entries with seq below this (paging cursor)' }),
    ),
    symbol: Type.Optional(Type.String({ pattern: SYMBOL_PATTERN })),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'Only entries at or after this time' })),
    until: Type.Optional(Type.String({ format: 'date-time', description: 'Only entries before this time' })),
  },
  { additionalProperties: false },
);

export const NotificationsQuery = Type.Object(
  {
    limit: Type.Integer({
      minimum: 1,
      maximum: 1000,
      default: 200,
      description: 'Audit entries read (newest first), not notifications returned',
    }),
    before: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Only entries with seq below this (paging cursor)' }),
    ),
  },
  { additionalProperties: false },
);

export const NotificationSchema = Type.Object({
  id: Type.String({ description: '`<entry hash>:<kind>:<index>`: the id the notifier delivers it under' }),
  seq: Type.Integer({ description: 'The audit entry it was made from' }),
  at: Type.String({ format: 'date-time' }),
  kind: Type.Union(NOTIFICATION_KINDS.map((k) => Type.Literal(k))),
  symbol: Type.Union([Type.String(), Type.Null()]),
  title: Type.String(),
  text: Type.String(),
});

export const FillSchema = Type.Object({
  seq: Type.Integer({ description: 'The audit entry that records it (a decision, or an `order_filled` entry)' }),
  at: Type.String({ format: 'date-time', description: 'When that entry was recorded' }),
  cycle: Type.Union([Type.Integer(), Type.Null()], { description: "The decision's cycle; null between cycles" }),
  client_order_id: Type.Union([Type.String(), Type.Null()]),
  symbol: Type.Union([Type.String(), Type.Null()]),
  side: Type.Union([Type.String(), Type.Null()]),
  filled_qty: Type.Number({
    description: 'At submission: what had filled when the venue answered; between cycles: this fill',
  }),
  avg_fill_price: Type.Union([Type.Number(), Type.Null()]),
  venue_status: Type.Union([Type.String(), Type.Null()], { description: 'At submission only' }),
  source: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'Between cycles only: `resting`, `exchange_stop` or `cancel`',
    }),
  ),
  filled_at: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: 'Between cycles only: when the venue filled it' }),
  ),
});

export const DecisionEntrySchema = Type.Object({
  seq: Type.Integer({ description: 'Position in the audit chain' }),
  at: Type.String({ format: 'date-time' }),
  symbol: Type.Union([Type.String(), Type.Null()]),
  hash: Type.String({ description: 'sha256 chain hash of this entry' }),
  prev_hash: Type.String(),
  decision: Type.Record(Type.String(), Type.Unknown(), {
    description: 'The coordinator decision record (see docs/operate/control-api.md)',
  }),
});
