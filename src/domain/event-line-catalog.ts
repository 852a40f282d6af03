/**
 * What each event line (./event-lines.ts) means: when it is written and what each field holds. It is
 * the source of docs/reference/events.md (scripts/reference/events-page.ts). Its type is derived from
 * the EventLine union, so an event added, renamed or removed there, or a field of one, fails the
 * typecheck until it is described here.
 */
import type { EventLine } from './event-lines.js';

type EventName = EventLine['event'];
type FieldsOf<E extends EventName> = Exclude<keyof Extract<EventLine, { event: E }>, 'event'>;

export interface EventLineEntry<E extends EventName> {
  /** When the line is written. */
  when: string;
  /** One description per field, in the order the line carries them. */
  fields: { readonly [F in FieldsOf<E>]: string };
}

export type EventLineCatalog = { readonly [E in EventName]: EventLineEntry<E> };

/** In the order a session writes them, then the further events; the six spec events first. */
export const EVENT_LINE_CATALOG: EventLineCatalog = {
  session_started: {
    when: 'The trading process started its session (spec event).',
    fields: { mode: 'Execution mode: `paper` or `live`.', strategies: 'The configured strategy agents, by name.' },
  },
  cycle_start: {
    when: 'A trading cycle starts (spec event).',
    fields: { cycle: 'Cycle number, from 1.', timestamp: 'When the cycle started (ISO 8601, UTC).' },
  },
  signal_generated: {
    when: 'A strategy agent produced a signal for a symbol (spec event).',
    fields: {
      agent: 'The agent (strategy) name.',
      symbol: 'The symbol.',
      direction: '1 long, -1 short, 0 flat (an exit).',
      confidence: 'Confidence in [0, 1].',
    },
  },
  agent_error: {
    when: 'A strategy threw while analysing a symbol: that symbol’s signal is lost for the cycle, the agent keeps running.',
    fields: {
      agent: 'The agent that threw.',
      symbol: 'The symbol it was analysing.',
      message: 'What it threw, cut to 500 characters.',
    },
  },
  risk_approved: {
    when: 'The risk engine approved and signed an order (spec event).',
    fields: {
      symbol: 'The symbol.',
      size: 'The approved quantity.',
      token: 'The order token (HMAC) the order manager verifies before submitting.',
    },
  },
  order_submitted: {
    when: 'The venue accepted an order (spec event).',
    fields: {
      symbol: 'The symbol.',
      side: '`BUY` or `SELL`.',
      qty: 'The order quantity.',
      mode: 'Execution mode: `paper` or `live`.',
    },
  },
  cycle_end: {
    when: 'A cycle ended, also one interrupted by a pause or kill (spec event).',
    fields: { cycle: 'Cycle number.', duration_ms: 'How long the cycle took, in milliseconds.' },
  },
  risk_rejected: {
    when: 'A risk guard refused an order (docs/reference/risk-codes.md).',
    fields: {
      symbol: 'The symbol.',
      guard: '`drawdown`, `leverage`, `liquidity` or `exposure`.',
      code: 'The guard’s code, e.g. `LEVERAGE_LIMIT`.',
      value: 'The measured figure (null when it cannot be computed).',
      limit: 'The limit it was compared with (null when none applies).',
    },
  },
  order_filled: {
    when: 'An order filled, in part or in whole.',
    fields: {
      symbol: 'The symbol.',
      side: '`BUY` or `SELL`.',
      qty: 'The quantity filled.',
      price: 'The fill price.',
      fee: 'The fee charged (negative: a maker rebate).',
      liquidity: '`maker` or `taker`.',
      client_order_id: 'The order’s client order id.',
      spread_cost:
        'Paper taker fills only: |price before slippage − mid of the book met| × qty, quote currency (the half spread, the walk through the book).',
      slippage_cost: 'Paper taker fills only: |price − price before slippage| × qty (`SLIPPAGE_BPS`).',
    },
  },
  order_rejected: {
    when: 'The venue refused an order.',
    fields: {
      symbol: 'The symbol.',
      client_order_id: 'The order’s client order id.',
      reason: 'The venue’s reason.',
    },
  },
  order_refused: {
    when: 'The order manager refused to submit (a stale or invalid token, a pause or kill): the venue never saw the order.',
    fields: {
      client_order_id: 'The order’s client order id.',
      code: 'The refusal code (docs/reference/risk-codes.md, order manager refusals).',
    },
  },
  orders_cancelled: {
    when: 'Resting orders were cancelled (cancel-all, a kill, a halt).',
    fields: {
      reason: 'Why they were cancelled.',
      symbols: 'The symbols asked for, or `all`.',
      count: 'How many orders were cancelled.',
      client_order_ids: 'Their client order ids.',
    },
  },
  position_liquidated: {
    when: 'The venue closed a position because the account’s equity fell to maintenance margin.',
    fields: {
      symbol: 'The symbol.',
      side: 'The closing trade’s side: `SELL` closed a long, `BUY` a short.',
      qty: 'The quantity closed.',
      price: 'The close price.',
      fee: 'The taker fee charged on the close.',
      liquidation_fee: 'The liquidation fee charged on top, paid into the insurance fund.',
      insurance_cover: 'What the insurance fund paid into the account so NAV does not end below zero.',
      insurance_fund: 'The insurance fund’s balance after this close.',
      equity: 'The account’s equity when it was liquidated.',
      maintenance_margin: 'The maintenance margin the equity fell to.',
    },
  },
  position_exit: {
    when: 'A protective exit (stop-loss, take-profit, trailing stop) filled; written after the close’s `order_filled`, with the same client order id.',
    fields: {
      symbol: 'The symbol.',
      reason: '`stop_loss`, `take_profit` or `trailing_stop`.',
      agent: 'The agent whose position it was (`protection` when the owner is unknown after a restart).',
      side: 'The closing trade’s side.',
      qty: 'The quantity closed.',
      price: 'The fill price.',
      entry_price: 'The position’s entry price.',
      trigger_price: 'The price that triggered the exit.',
      client_order_id: 'The close’s client order id.',
    },
  },
  control_changed: {
    when: 'The trading process applied a control change (pause, resume, kill, end of a kill).',
    fields: { state: '`running`, `paused` or `killed`.', epoch: 'The control epoch after the change.' },
  },
  command_executed: {
    when: 'A queued command (cancel-all, deleverage, flatten, risk reset) completed with its audit entry.',
    fields: {
      command_id: 'The command’s id.',
      type: 'The command type.',
      status: 'How it ended, e.g. `done`, `rejected`, `flat`.',
    },
  },
  command_unrecorded: {
    when: 'A command’s work was done but the store refused its completion with its audit entry: it stays open and is handed out again when its lease expires.',
    fields: {
      command_id: 'The command’s id.',
      type: 'The command type.',
      message: 'The store’s refusal, cut to 500 characters.',
    },
  },
  flatten_completed: {
    when: 'A flatten command ended; its orders have their own order lines.',
    fields: {
      command_id: 'The command’s id.',
      status: '`flat` (every chosen position closed), `nothing` (already flat) or `partial`.',
      closed: 'The symbols closed.',
      remaining: 'The symbols still open (for `partial`).',
    },
  },
  drawdown_reset: {
    when: 'An operator reset the drawdown reference (`tcs risk reset`): the peak NAV is now the NAV.',
    fields: {
      command_id: 'The risk reset command’s id.',
      previous_peak_nav: 'The peak NAV before the reset.',
      peak_nav: 'The peak NAV now (the NAV at the reset).',
      reason: 'The operator’s reason.',
      actor: 'Who reset it.',
    },
  },
  risk_state_changed: {
    when: 'The risk engine’s trading state changed (`active`, `reducing`, `halted`).',
    fields: {
      from: 'The previous state.',
      to: 'The new state.',
      reason: 'Why it changed.',
      drawdown: 'The drawdown when it changed (null for a kill).',
      nav: 'The NAV when it changed (null for a kill).',
      peak_nav: 'The peak NAV when it changed (null for a kill).',
    },
  },
  position_drift: {
    when: 'Live venue: the exchange holds positions the system’s own fills do not explain, so no order that adds exposure is sent; an empty `drift` says it ended.',
    fields: { drift: 'Per symbol in drift: `{symbol, expected, actual}` (what the fills explain, what is held).' },
  },
  market_data_stale: {
    when: 'The cycle’s market data is older than `FEED_STALE_MS` in some symbols, so openings in them are refused `LIQUIDITY_STALE` (closes pass): said when it starts and when the symbols change; an empty `stale` says every symbol is fresh again.',
    fields: {
      limit_ms: 'The staleness limit, `FEED_STALE_MS`.',
      stale:
        'Per symbol too old to trade: `{symbol, age_ms}` (the data’s age at the cycle’s time; null when its stamp is not a number), the oldest first.',
    },
  },
  trading_halted: {
    when: 'The trading process stopped opening exposure for safety (the store, the exchange or the control plane was lost, the store is not the one it knew, or its clock is off), or started already halted.',
    fields: {
      reason:
        'The halt’s code, one of the halt reasons in risk-codes.md (e.g. `control_plane_lost`, `store_unreachable`, `clock_skew`).',
    },
  },
  trading_halt_ended: {
    when: 'The safety halt ended: the store and the control record agree again.',
    fields: {},
  },
  session_stopped: {
    when: 'The session ended (the process is stopping).',
    fields: { reason: 'Why it stopped, e.g. a signal.' },
  },
};
