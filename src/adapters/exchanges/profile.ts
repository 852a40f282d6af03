/**
 * What the generic ccxt live venue needs to know about one exchange beyond ccxt's unified API (issue
 * 33, item 2): one `ExchangeProfile` per supported exchange (./binanceusdm.ts), listed in
 * ./registry.ts. Everything exchange-specific lives in the profile as a fact or a small call; the
 * generic code (src/adapters/live-venue/, the live feed, the opener) reads it and never names an
 * exchange. Exchange-neutral behaviour (reconciliation, unknown outcomes, drift) is not here.
 * Adding an exchange is a profile, a registry line, a fake dialect and a docs page
 * (docs/develop/adding-an-exchange.md).
 */
import type { Balances, Exchange, Order } from 'ccxt';
import type { IncomeLine } from '../live-venue/income-tally.js';
import type { AnswerVerdict } from './answer-verdict.js';

/** What a failed exchange call means for an order (../live-venue/exchange-errors.ts says each). */
export type FailureKind = 'rate_limited' | 'retryable' | 'clock' | 'unknown' | 'duplicate' | 'auth' | 'rejected';

/** What an exchange's own error code says about an order (`auth` is left to ccxt's classes). */
export type CodeKind = Exclude<FailureKind, 'auth'>;

/** The exchange's leverage and margin type on one symbol, as the account reads them. */
export interface SymbolSettings {
  leverage: number;
  marginType: 'isolated' | 'cross';
}

/** The client order id an exchange accepts. */
export interface ClientIdRule {
  pattern: RegExp;
  maxLength: number;
  /**
   * Whether an id too long or of the wrong characters is hashed to letters and digits only (`hx` and
   * hex: OKX, whose ids are alphanumeric) rather than to `h-` and base64url (Binance, Bybit).
   */
  alphanumericOnly?: boolean;
}

export interface ExchangeProfile<Id extends string = string> {
  /** ccxt's exchange id (`new ccxt[id]`), which is also what EXCHANGE accepts. */
  id: Id;
  /** How people name it, in messages and `tcs venue check`. */
  name: string;
  /**
   * What the venue trades (absent: 'swap'). 'swap': linear perpetuals, with positions, margin and
   * reduce-only orders on the exchange. 'spot': balances, long-only, no leverage: a "position" is the
   * base asset held, the NAV is the quote plus each base at its mark, a reduce-only order is a sell of
   * at most what is held (the exchange has none), and no funding (../live-venue/spot-holdings.ts).
   */
  market?: 'swap' | 'spot';

  // ---- opening the client (../exchanges/open-exchange.ts) ----
  /** ccxt `options` at construction: what loadMarkets may call, the recvWindow, time sync. */
  clientOptions: Readonly<Record<string, unknown>>;
  /** Switches a fresh client to the exchange's testnet or demo environment (EXCHANGE_TESTNET=true). */
  useTestnet(exchange: Exchange): void;
  /** What the testnet is called, for people (`tcs venue check`'s first line). */
  testnetLabel: string;
  /**
   * Why mainnet is refused for this exchange, or null when it may trade real money (with
   * LIVE_MAINNET=confirm). An exchange proven only against the project's fake stays on its testnet
   * until it has been run end to end and checked on the real testnet.
   */
  mainnetRefused: string | null;
  /** How long after its timestamp the exchange accepts a signed request, ms. */
  recvWindowMs: number;
  /** Pattern of the query parameter carrying a request's signature, blanked in error messages ($1 kept). */
  signatureInUrl: RegExp;
  /**
   * Whether the exchange's API key comes with a passphrase chosen when the key was made (OKX), sent
   * with every signed request: EXCHANGE_API_PASSPHRASE is then required, and given to ccxt as `password`.
   */
  passphrase: boolean;

  // ---- orders (../live-venue/live-venue.ts, client-ids.ts, protective-stops.ts) ----
  /** The client order id the exchange accepts (ours are hashed to fit when they do not). */
  clientOrderId: ClientIdRule;
  /** ccxt createOrder params for a limit order that rests, and for a post-only one (never takes). */
  limitParams: { gtc: Readonly<Record<string, unknown>>; postOnly: Readonly<Record<string, unknown>> };
  /**
   * Whether ccxt's fetchPositions takes a list of symbols (Binance); when not (Bybit: one symbol or
   * none), the venue reads them all and keeps its own.
   */
  positionsBySymbolList: boolean;
  /**
   * Whether createOrder's answer is only an acknowledgement (the ids: Bybit) rather than the order as
   * placed (status, fills: Binance): the venue then reads the order by its client id before reporting it.
   */
  createAnswersIdsOnly: boolean;
  /** ccxt fetchOrder params that look an order up by its client order id (ccxt's id argument left empty). */
  lookupParams(clientOrderId: string): Record<string, unknown>;
  /** ccxt fetchMyTrades params that read the fills of one order (its exchange id): Binance `orderId`, OKX `ordId`. */
  tradesOfOrderParams(orderId: string): Record<string, unknown>;
  /**
   * Whether the exchange cancels every open order of one symbol in one call (ccxt cancelAllOrders);
   * when not (OKX has no such call for swaps), the venue cancels the orders it read open by their ids
   * (ccxt cancelOrders), and an order landing after that read is found by the next reconciliation.
   */
  cancelAllBySymbol: boolean;
  /** ccxt createOrder params that make an order reduce-only. */
  reduceOnlyParams: Readonly<Record<string, unknown>>;

  // ---- errors (../live-venue/exchange-errors.ts, refusal-codes.ts, exchange-clock.ts) ----
  /** The fields of the exchange's JSON error answer that carry its code and its message (Binance `{code, msg}`). */
  errorBody: {
    code: string;
    message: string;
    /**
     * Where an answer refusing one order says why, inside a list (OKX: `data[0].sCode` / `sMsg`
     * under a general `{"code":"1","msg":"All operations failed"}`): read before the general fields.
     */
    perOrder?: { list: string; code: string; message: string };
  };
  /** The exchange's own error code inside a ccxt error, or null. */
  errorCode(err: unknown): number | null;
  /** What each known code means for the order; a code not listed is judged by ccxt's class. */
  refusalCodes: ReadonlyMap<number, CodeKind>;
  /** The code for "an open order already has this client id" (ccxt may report it as a plain InvalidOrder). */
  duplicateOrderCode: number;
  /** Codes the exchange documents as "not processed" (trusted for a reduce-only close only). */
  notProcessedCodes: readonly number[];
  /** The code for a request whose timestamp was outside the recvWindow (the clock watch re-syncs on it). */
  timestampRefusedCode: number;
  /**
   * What an answer (any status; `body` as text) says about the request rate or the clock: too many
   * requests, the IP banned, a timestamp refused (./answer-verdict.ts), or null. The request gate
   * and the clock watch read every answer through it.
   */
  readAnswer(status: number, headers: unknown, body: string): AnswerVerdict | null;

  // ---- market data (../market-data/live/live-feed.ts) ----
  /** Order book depths the exchange serves (the feed asks the smallest one ≥ the levels wanted), or null: any. */
  bookDepths: readonly number[] | null;

  // ---- the user-data stream (../live-venue/user-stream.ts) ----
  /**
   * How a trade pushed by ccxt pro's `watchMyTrades` names our client order id (the exchange's raw
   * trade in `info`), or null when the stream is not supported for this exchange: then every resting
   * order is polled, whatever EXCHANGE_USER_STREAM says. A stream whose trades cannot be matched to
   * our orders must never be used: while it is up, the orders it "covers" are not polled.
   */
  userStream: { tradeClientOrderId(info: unknown): string | undefined } | null;

  // ---- protection when the process is gone ----
  /**
   * The dead-man's switch: arms a cancel-all countdown for one symbol (its market id; 0 disarms), or
   * null when the exchange has none; `deadMansSwitchNote` then says what replaces it.
   */
  deadMansSwitch: ((exchange: Exchange) => (symbolId: string, countdownMs: number) => Promise<unknown>) | null;
  /**
   * What the switch reaches: `symbol` (the default; Binance's countdownCancelAll, armed per symbol,
   * cancels a symbol's stops too, so it is disarmed where our stop rests) or `account` (OKX's
   * cancel-all-after: one switch for the whole account, armed once, which leaves conditional stops
   * resting, so never disarmed for one; `symbolId` is then ignored).
   */
  deadMansSwitchScope?: 'symbol' | 'account';
  /** The longest countdown the exchange takes, ms (OKX 120 s); when absent, any. */
  deadMansSwitchMaxMs?: number;
  deadMansSwitchNote: string;
  /**
   * A dead-man's switch held instead of re-armed (Bybit's Disconnect Cancel All, DCP): the exchange
   * cancels the account's open orders once every private WebSocket connection subscribed to it has
   * been gone `windowMs`. The venue sets the window once at start and keeps one such connection open
   * (../live-venue/disconnect-guard.ts), reconnecting with a backoff; a connection that stays down
   * halts new exposure. Absent or null: none (`deadMansSwitch` or `deadMansSwitchNote` says what
   * protects instead).
   */
  disconnectCancel?: {
    /** The window set on the exchange, ms; within the exchange's bounds (Bybit 3–300 s). */
    windowMs: number;
    /**
     * Whether running out cancels conditional (stop) orders too. True where the exchange does not say
     * it leaves them: the switch is then never held while our exchange stops may rest (it would cancel
     * them after a crash, leaving the position unprotected).
     */
    cancelsStops: boolean;
    /** Sets the window on the exchange (at start, before the connection is opened). */
    setWindow(exchange: Exchange, windowMs: number): Promise<unknown>;
    /**
     * Opens one private connection subscribed to the switch (a ccxt pro client): resolves once it is
     * authenticated and subscribed, with `closed`, which settles (rejects, with why) when it ends.
     */
    connect(exchange: Exchange): Promise<{ closed: Promise<unknown> }>;
  } | null;
  /**
   * Exchange-side protective stops (../live-venue/protective-stops.ts), or null when none is used
   * (`deadMansSwitchNote` then says what protects a holding).
   */
  exchangeStops: {
    /** ccxt createOrder params for a close-position stop-market at `triggerPrice` on the mark price. */
    params(triggerPrice: string, clientOrderId: string): Record<string, unknown>;
    /**
     * The amount ccxt's createOrder is given for that stop: 0 where ccxt leaves the size out for a
     * close-position stop (Binance closePosition, Bybit qty "0", OKX closeFraction), undefined where
     * ccxt refuses an amount of 0 before sending (its amountToPrecision: Bitget) and the exchange's
     * stop closes the whole position without a size.
     */
    closeAmount: 0 | undefined;
    /** ccxt params that address stop orders (fetchOpenOrders, fetchOrder, cancelOrder). */
    query: Readonly<Record<string, unknown>>;
    /**
     * Reads one stop by its exchange id where ccxt's fetchOrder cannot (Bitget: no detail call for
     * plan orders, so it is looked for among the pending ones, then the past ones); absent, the stop
     * is read by fetchOrder with `query` (Binance, Bybit, OKX).
     */
    read?(exchange: Exchange, id: string, symbol: string): Promise<Order>;
    /** Whether a stop order, as fetched, still rests. */
    resting(order: Order): boolean;
    /** The id of the book order a triggered stop became (its trades), or undefined when none. */
    triggeredOrderId(order: Order): string | undefined;
  } | null;

  // ---- history (../market-data/download/download.ts) ----
  /**
   * The ccxt params that end a funding-history request at `untilMs` (exclusive): `{ until }` where
   * ccxt translates it for the exchange; the exchange's own bound where ccxt does not (OKX), since a
   * request bounded only by its start answers the newest page there, not the window asked for.
   */
  fundingHistoryUntil?: (untilMs: number) => Record<string, unknown>;
  /**
   * The most candles and funding rows one history request returns, where it is below 1 000 and 200:
   * each request's window is sized to it, since an exchange answering newest first returns a bigger
   * window's last page only.
   */
  historyPages?: { candles: number; funding: number };

  // ---- account (../live-venue/income-tally.ts, account-check.ts) ----
  /** Reads the income history (fees, funding) from `startTime`, oldest first, or null when it has none. */
  income: ((exchange: Exchange) => (startTime: number, limit: number) => Promise<IncomeLine[]>) | null;
  /** Lines per income page (the exchange's most). */
  incomePageSize: number;
  /**
   * The account's value in USDT (wallet plus unrealised PnL) from ccxt's fetchBalance answer, or
   * undefined when the answer does not say it.
   */
  navOf(balance: Balances): number | undefined;
  /** The reads a live start checks the account by, and the fixes it names. */
  account: {
    /** The exchange's time, epoch ms (the clock-skew check). */
    serverTime(exchange: Exchange): Promise<number>;
    /** True when the account is in hedge (two-sided) position mode. */
    hedgeMode(exchange: Exchange): Promise<boolean>;
    hedgeModeFix: string;
    /** True when the account margins across assets (the venue assumes one asset). */
    multiAssets(exchange: Exchange): Promise<boolean>;
    multiAssetsFix: string;
    /** Leverage and margin type of one symbol (its market id). */
    symbolSettings(exchange: Exchange, symbolId: string): Promise<SymbolSettings>;
  };

  // ---- request budget (../live-venue/request-gate.ts, weight-budget.ts) ----
  /**
   * Whether a request ccxt is about to send (its method, ccxt's path and params) closes or cancels:
   * the budget lets these through when it holds back everything else.
   */
  isClosing(method: string, path: string, params: Readonly<Record<string, unknown>>): boolean;
  weights: {
    /** The account's request weight per minute until the exchange says otherwise. */
    defaultLimitPerMinute: number;
    /** The answer header carrying the minute's used weight (lower case), or null when none. */
    usedWeightHeader: string | null;
    /** A request's weight from ccxt's cost for it (corrected where ccxt's table is low). */
    weigh(api: unknown, path: string, ccxtCost: number): number;
    /** The limit per minute from an answer to `url`, when it is the one that tells it; else null. */
    limitFrom(url: string, body: unknown): number | null;
  };
}
