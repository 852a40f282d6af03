/**
 * Why the trading process halted for safety (the `reason` of a `trading_halted` line, of
 * `tcs_trading_halt{reason}` and of /health's `halted (<reason>)`). The source of the halt section of
 * docs/reference/risk-codes.md; the safety monitor's faults are typed by HaltReason, so a new reason
 * fails the typecheck until it is described here. What each check measures and why is in
 * src/application/safety-monitor.ts.
 */
export const HALT_REASON_CATALOG = {
  store_empty:
    'The store answered without its control record (emptied, flushed, a new file): only `tcs store adopt` or the original store coming back ends it.',
  store_replaced:
    'The store answered with another identity than the one this process knew: adoption or the original store ends it.',
  store_rolled_back:
    'The store went back (an older epoch, or an audit trail shorter than the one seen): adoption or the original store ends it.',
  store_fenced: 'The trading lease passed to another process: this one stops opening exposure.',
  store_tampered: 'The control record has no valid MAC: it was not written by a holder of `CONTROL_SECRET`.',
  store_unreachable: 'The store has not answered for `STORE_LOSS_HALT_MS`.',
  store_write_refused:
    'The store answers reads but has refused this process’s writes for `STORE_LOSS_HALT_MS`, counted from the first refusal (a full disk, Redis out of memory, a replica).',
  store_evicting:
    'Redis’s `maxmemory-policy` lets it evict keys (or cannot be read): the audit trail, the control record or the lease could vanish. Fix: `CONFIG SET maxmemory-policy noeviction`.',
  latch_unwritable:
    'The trading latch (`TRADING_LATCH_PATH`) cannot be written: a move this process cannot remember would be forgotten by a restart.',
  clock_skew:
    'This process’s wall clock is more than 5 s from the store’s (Redis `TIME`, or the host’s kernel clock for SQLite): every audit entry it would write is refused. Fix the host’s clock (NTP).',
  lease_unconfirmed:
    'The trading lease has not been confirmed for three quarters of its duration: no new exposure before it could run out.',
  control_plane_lost: 'No API heartbeat has moved for `CONTROL_PLANE_TIMEOUT`: nobody could pause or kill trading.',
  exchange_unreachable: 'Live execution: the exchange has not answered for `EXCHANGE_LOSS_HALT_MS`.',
  exchange_banned:
    'Live execution: the exchange banned this IP (too many requests: Binance’s HTTP 418, Bybit’s 403); the message names the ban’s end. No request is sent until then; it ends when the exchange answers again after it.',
  exchange_clock_skew:
    'Live execution: this host’s clock is more than half the recvWindow (5 s) off the exchange’s server time, measured while trading: signed requests are refused (-1021) and every stamp the system writes is that far off. Fix the host’s clock (NTP); it ends when a measurement agrees again.',
  exchange_switch_down:
    'Live execution: the private connection the exchange’s dead-man’s switch watches (Bybit’s Disconnect Cancel All) has been down for half its window: the exchange may cancel every order of the account, and a crash meanwhile would leave resting orders working. It reconnects by itself; it ends when the connection is back.',
} as const satisfies Readonly<Record<string, string>>;

export type HaltReason = keyof typeof HALT_REASON_CATALOG;
