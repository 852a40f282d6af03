/**
 * Response schemas of the read-only routes the console needs beyond the spec's: the account
 * (GET /control/portfolio), a deleverage preview and the audit chain's verification. They also
 * serialise the answers, so nothing but these fields ever leaves.
 */
import { Type } from 'typebox';
import { DeleverageOrderSchema } from '../schemas.js';

const Num = Type.Union([Type.Number(), Type.Null()]);

export const AccountSchema = Type.Object({
  symbols: Type.Array(Type.Object({ symbol: Type.String(), kind: Type.String(), lot_size: Type.Number() }), {
    description: 'The whitelist, with each instrument kind and lot size',
  }),
  published_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the trading process published this portfolio; null (and figures null) before it has',
  }),
  nav: Num,
  peak_nav: Num,
  cash: Num,
  realized_pnl: Num,
  unrealized_pnl: Num,
  funding_pnl: Num,
  fees_paid: Num,
  starting_nav: Type.Union([Type.Number(), Type.Null()], {
    description: 'The cash the account opened with (PAPER_STARTING_CASH when it was created); null when unknown',
  }),
  pnl_since_start: Type.Union([Type.Number(), Type.Null()], { description: 'nav − starting_nav' }),
  drawdown: Type.Union([Type.Number(), Type.Null()], { description: '(peak_nav − nav) / peak_nav' }),
  gross_exposure: Type.Union([Type.Number(), Type.Null()], { description: 'Σ |qty| × mark' }),
  leverage: Type.Union([Type.Number(), Type.Null()], { description: 'gross_exposure / nav' }),
  margin_used: Type.Union([Type.Number(), Type.Null()], {
    description: 'Initial margin tied up, as the trading process last reported it (its tcs_trading_margin_used)',
  }),
  positions: Type.Array(
    Type.Object({
      symbol: Type.String(),
      kind: Type.String(),
      qty: Type.Number({ description: 'Signed: > 0 long, < 0 short' }),
      entry_price: Type.Number(),
      mark_price: Type.Number(),
      notional: Type.Number(),
      unrealized_pnl: Type.Number(),
      realized_pnl: Type.Number(),
    }),
  ),
  open_orders: Type.Array(
    Type.Object({
      client_order_id: Type.String(),
      symbol: Type.String(),
      side: Type.String(),
      type: Type.String(),
      qty: Type.Number(),
      filled_qty: Type.Number(),
      limit_price: Num,
      reduce_only: Type.Boolean(),
      status: Type.String(),
      created_at: Type.String({ format: 'date-time' }),
    }),
  ),
});

export const DeleveragePreviewSchema = Type.Object({
  symbol: Type.String(),
  reduce_pct: Type.Number(),
  position_qty: Type.Number({ description: 'Signed position in the last snapshot the trading process published' }),
  order: Type.Union([DeleverageOrderSchema, Type.Null()], {
    description: 'The reduce-only order POST /control/deleverage would prepare now, or null',
  }),
  message: Type.String(),
});

export const AuditVerificationSchema = Type.Object({
  ok: Type.Boolean({ description: 'true when every entry re-hashes to its stored hash and the head matches' }),
  count: Type.Integer({ description: 'Entries checked' }),
  head: Type.Union([Type.String(), Type.Null()], { description: 'The chain head hash (when ok)' }),
  first_bad: Type.Union([Type.Object({ seq: Type.Integer(), reason: Type.String() }), Type.Null()], {
    description: 'The first bad entry and why (when not ok)',
  }),
  checked_at: Type.String({ format: 'date-time' }),
  duration_ms: Type.Number(),
  archive: Type.Object(
    {
      status: Type.Union(
        [Type.Literal('none'), Type.Literal('linked'), Type.Literal('broken'), Type.Literal('unavailable')],
        {
          description:
            '`none`: the store was never trimmed; `linked`: the archive holds the last entry trimmed with its hash; ' +
            "`broken`: it does not (`ok` is false); `unavailable`: it could not be read (`ok` is the window's verdict)",
        },
      ),
      floor: Type.Integer({ description: 'The last entry trimmed from the store (0: none)' }),
      problem: Type.Union([Type.String(), Type.Null()]),
    },
    {
      description:
        "The store's window held against the audit archive (read-only; the archive itself is re-hashed by `tcs audit verify`)",
    },
  ),
});
