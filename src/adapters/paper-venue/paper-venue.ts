/**
 * The paper trading venue: a Venue that simulates fills against the market snapshots it is given
 * and keeps the whole account (cash, positions, open and recent terminal orders, funding
 * bookkeeping, marks, the peak NAV window) in the key-value store under `paper:state`. Every operation runs
 * alone (serial queue), mutates the account, writes it and only then returns, so what a caller
 * saw acknowledged survives a restart. If a write fails the operation fails and the next one
 * first reloads the stored account, so memory never runs ahead of the store.
 *
 * Time comes from the injected Clock (order and fill timestamps, GTT expiry) and from the
 * snapshots (funding). `submit` also records marks and settles due funding for the market it is
 * given, so a position opened after a funding time never pays for it. Perpetuals are margined
 * (margin-account.ts): an order that would need more initial margin than is free is rejected.
 * `onMarket` settles funding, cancels expired GTT orders, liquidates an account at maintenance
 * margin (liquidation.ts), matches resting orders against the depth, and checks liquidation again.
 */
import { instrumentOf } from '../../domain/instruments.js';
import type { Instrument, MarketSnapshot, MarketView } from '../../domain/market.js';
import { heldQuote } from '../../domain/held-closes.js';
import type { OrderRequest, VenueOrder } from '../../domain/orders.js';
import type { AccountSnapshot } from '../../domain/portfolio.js';
import type { Clock } from '../../ports/clock.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import type { MarketUpdate, SubmitResult, Venue } from '../../ports/venue.js';
import { resolvePaperVenueConfig } from './config.js';
import type { PaperVenueConfigInput } from './config.js';
import { executeNew, matchResting, takerCost } from './execution.js';
import { observeFunding } from './funding.js';
import { expireOrders, liquidateIfDue } from './liquidation.js';
import { marginProblem } from './margin-account.js';
import { accountSnapshot, resetPeak, updateMarks, updatePeak } from './marking.js';
import { loadState, saveState } from './persistence.js';
import { createSerialQueue } from './serial.js';
import { frozenAccount, restamped, totalsChanged, totalsOf } from './shown-account.js';
import { createInitialState, findOrder, retire } from './state.js';
import type { PaperState } from './state.js';
import { validateOrder } from './validation.js';

export interface PaperVenueOptions {
  kv: KeyValueStore;
  instruments: readonly Instrument[];
  clock: Clock;
  config?: PaperVenueConfigInput;
  /**
   * 'store' (default): the account is read from `kv` at open and written after every change.
   * 'process': it lives in this process only, from the starting cash — for a simulation run, which
   * has nothing to resume and no other reader, and where encoding the account after every change
   * was a twentieth of a cycle.
   */
  persistence?: 'store' | 'process';
  /**
   * The clock the drawdown window's peaks are timed on: one a wall-clock step cannot move
   * (runtime/trading/steady-clock.ts), so a step never ages them. `clock` when omitted.
   */
  windowClock?: Clock;
}

export async function openPaperVenue(options: PaperVenueOptions): Promise<Venue> {
  const { kv, clock } = options;
  const windowClock = options.windowClock ?? clock;
  const config = resolvePaperVenueConfig(options.config);
  const instruments = new Map(options.instruments.map((i) => [i.symbol, { ...i }]));
  const queue = createSerialQueue();
  const persistent = options.persistence !== 'process';
  let state: PaperState = persistent
    ? await loadState(kv, config.startingCash)
    : createInitialState(config.startingCash);
  let stale = false;
  // The account last handed out (shown-account.ts); undefined once the state may have changed.
  let shown: AccountSnapshot | undefined;

  // A symbol SYMBOLS no longer lists but the account still holds: it can be closed (held-closes.ts).
  const instrumentFor = (symbol: string): Instrument | undefined => {
    const held = state.positions.get(symbol);
    return instruments.get(symbol) ?? (held === undefined ? undefined : instrumentOf(symbol, held.kind));
  };

  // A close of a held symbol the feed no longer carries fills at the position's last mark: a close is
  // never refused for want of a market (held-closes.ts). Only closes: nothing opens on a made-up quote.
  const closingQuote = (order: VenueOrder, now: number): MarketSnapshot | undefined => {
    const held = state.positions.get(order.symbol);
    if (!order.reduceOnly || held === undefined || held.qty === 0) return undefined;
    const markPrice = state.marks.get(order.symbol) ?? held.entryPrice;
    return heldQuote({ symbol: order.symbol, kind: held.kind, qty: held.qty, markPrice }, now);
  };

  const isPerp = (symbol: string): boolean =>
    (instruments.get(symbol)?.kind ?? state.positions.get(symbol)?.kind) === 'perp';

  /** Runs `task` alone, on an account that matches the store. */
  function exclusive<T>(task: () => Promise<T>): Promise<T> {
    return queue.run(async () => {
      if (stale) {
        state = await loadState(kv, config.startingCash, false);
        stale = false;
        shown = undefined;
      }
      return task();
    });
  }

  async function commit(): Promise<void> {
    if (!persistent) return;
    try {
      await saveState(kv, state);
    } catch (err) {
      stale = true;
      throw err;
    }
  }

  /** Marks, settles due funding and raises the peak for a market the venue is shown; true when marks or peak changed. */
  function observe(market: MarketView): boolean {
    const marked = updateMarks(state, market, config.markPrice);
    observeFunding(state, market, isPerp, config.fundingIntervalMs);
    return updatePeak(state, windowClock.now(), config.drawdownWindowMs) || marked;
  }

  /** The window's peak as of now (it may fall as old highs leave the window). */
  const peakNow = (): boolean => updatePeak(state, windowClock.now(), config.drawdownWindowMs);

  return {
    mode: 'paper',

    submit(request: OrderRequest, market: MarketView): Promise<SubmitResult> {
      return exclusive(async () => {
        shown = undefined;
        const now = clock.now();
        const known = typeof request.clientOrderId === 'string' ? findOrder(state, request.clientOrderId) : undefined;
        if (known !== undefined) return { order: { ...known }, fills: [], duplicate: true };
        const order: VenueOrder = {
          clientOrderId: request.clientOrderId,
          symbol: request.symbol,
          side: request.side,
          qty: request.qty,
          type: request.type,
          limitPrice: request.type === 'market' ? null : request.limitPrice,
          reduceOnly: request.reduceOnly === true,
          status: 'open',
          filledQty: 0,
          avgFillPrice: null,
          createdAt: now,
          updatedAt: now,
          // Copied only when given, so orders that do not use them read exactly as before.
          ...(request.timeInForce !== undefined && { timeInForce: request.timeInForce }),
          ...(request.goodTill !== undefined && { goodTill: request.goodTill }),
          ...(request.postOnly !== undefined && { postOnly: request.postOnly }),
        };
        if (typeof order.clientOrderId !== 'string' || order.clientOrderId.length === 0) {
          // Without an id there is nothing to be idempotent on, so nothing is recorded.
          return {
            order: { ...order, status: 'rejected', rejectReason: 'clientOrderId is required' },
            fills: [],
            duplicate: false,
          };
        }
        observe(market);
        const instrument = instrumentFor(order.symbol);
        const snapshot = market.get(order.symbol) ?? closingQuote(order, now);
        const verdict = validateOrder(order, { instrument, snapshot, state, now });
        let fills: SubmitResult['fills'] = [];
        if (!verdict.ok) {
          order.status = 'rejected';
          order.rejectReason = verdict.reason;
          // The reason quotes the bad input; the record keeps only what JSON can carry.
          if (typeof order.qty !== 'number' || !Number.isFinite(order.qty)) order.qty = 0;
          if (typeof order.limitPrice !== 'number' || !Number.isFinite(order.limitPrice)) order.limitPrice = null;
          if (typeof order.symbol !== 'string') order.symbol = String(order.symbol);
        } else if (instrument !== undefined && snapshot !== undefined) {
          order.qty = verdict.qty;
          order.limitPrice = verdict.limitPrice;
          // Counted as resting at its limit, or at the best quote it would take for a market order.
          const price = verdict.limitPrice ?? (order.side === 'BUY' ? snapshot.ask : snapshot.bid);
          const cost = takerCost({ state, config }, instrument, order, snapshot);
          const problem = marginProblem(state, config.margin, isPerp, order, price, cost);
          if (problem === null) fills = executeNew({ state, config, now }, instrument, order, snapshot);
          else {
            order.status = 'rejected';
            order.rejectReason = problem;
          }
        }
        if (order.status === 'open') state.openOrders.set(order.clientOrderId, order);
        else retire(state, order, config.maxTerminalOrders);
        peakNow();
        await commit();
        return { order: { ...order }, fills, duplicate: false };
      });
    },

    cancelAll(symbols?: readonly string[]): Promise<VenueOrder[]> {
      return exclusive(async () => {
        shown = undefined;
        const wanted = symbols === undefined ? null : new Set(symbols);
        const now = clock.now();
        const cancelled: VenueOrder[] = [];
        for (const order of [...state.openOrders.values()]) {
          if (wanted !== null && !wanted.has(order.symbol)) continue;
          order.status = 'cancelled';
          order.updatedAt = now;
          retire(state, order, config.maxTerminalOrders);
          cancelled.push({ ...order });
        }
        if (cancelled.length > 0) await commit();
        return cancelled;
      });
    },

    onMarket(market: MarketView): Promise<MarketUpdate> {
      return exclusive(async () => {
        // Orders that rest may change without a fill (a reduce-only with nothing left is cancelled).
        const ordersMayChange = state.openOrders.size > 0;
        const totals = totalsOf(state);
        const observed = observe(market);
        const ctx = { state, config, now: clock.now() };
        const cancelled = expireOrders(ctx);
        // Before matching, so nothing fills into an account at maintenance; after, for what fills did.
        const before = liquidateIfDue(ctx, instruments, market, isPerp);
        const fills = matchResting(ctx, instruments, market);
        const after = liquidateIfDue(ctx, instruments, market, isPerp);
        const peaked = peakNow();
        const acted = fills.length + before.liquidations.length + after.liquidations.length + cancelled.length > 0;
        if (observed || peaked || ordersMayChange || acted || totalsChanged(state, totals)) shown = undefined;
        await commit();
        return {
          fills,
          liquidations: [...before.liquidations, ...after.liquidations],
          cancelled: [...cancelled, ...before.cancelled, ...after.cancelled],
        };
      });
    },

    account(market?: MarketView): Promise<AccountSnapshot> {
      return exclusive(async () => {
        let changed: boolean;
        if (market !== undefined) {
          const marked = updateMarks(state, market, config.markPrice);
          changed = peakNow() || marked;
        } else changed = peakNow();
        if (changed) {
          shown = undefined;
          await commit();
        }
        const now = clock.now();
        shown = shown === undefined ? frozenAccount(accountSnapshot(state, now)) : restamped(shown, now);
        return shown;
      });
    },

    resetDrawdownPeak() {
      return exclusive(async () => {
        shown = undefined;
        const reset = resetPeak(state, windowClock.now(), config.drawdownWindowMs);
        await commit();
        return reset;
      });
    },

    openOrders(): Promise<VenueOrder[]> {
      return exclusive(async () => [...state.openOrders.values()].map((o) => ({ ...o })));
    },
  };
}
