/**
 * The last gate before the venue, on a real store and the real paper venue: nothing is submitted
 * without a valid token for the current epoch in the running state. Changing a signed field,
 * replaying, expiry, an old epoch, a pause or kill recorded in the store (even one this process
 * has not been told about yet) and an aborted job are all refused — and the venue sees nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { createSyntheticFeed } from '../../src/adapters/market-data/index.js';
import { openPaperVenue } from '../../src/adapters/paper-venue/index.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import type { MarketView } from '../../src/domain/market.js';
import { signApproval } from '../../src/domain/order-token.js';
import type { ApprovedOrder, OrderRequest } from '../../src/domain/orders.js';
import type { EventLine } from '../../src/domain/event-lines.js';
import { UsedTokenLedger } from '../../src/domain/used-token-ledger.js';
import type { Venue } from '../../src/ports/venue.js';
import { generateKey } from '../../src/domain/keys.js';
import { createCommandCompletion } from '../../src/application/command-completion.js';
import { createOrderExecution } from '../../src/application/order-execution.js';
import { createFillAudit } from '../../src/application/fill-audit.js';
import type { JobExecutor } from '../../src/application/order-execution.js';
import { killCancelsPayload } from '../support/commands.js';
import { createJobReceipts } from '../../src/application/job-receipts.js';
import type { JobReceipts } from '../../src/application/job-receipts.js';
import { createOrderGate } from '../../src/application/order-gate.js';
import { STORE_KINDS, openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { applyControl } from '../../src/application/control-transition.js';

const SECRET = generateKey();
const NOW = Date.UTC(2026, 0, 5);
const who = { actor: 'test', at: new Date(NOW).toISOString() };

describe.each(STORE_KINDS)('order executor gate on %s', (kind) => {
  let t: TestStore;
  let venue: Venue;
  let execute: JobExecutor;
  let market: MarketView;
  let lines: string[];
  let seq = 0;
  let omsMode: 'accepting' | 'halted' | 'stopped' = 'accepting';
  const clock = { now: () => NOW };
  afterEach(async () => t.cleanup());

  let receipts: JobReceipts;
  /** The waits a cancel asked for between its tries (nothing actually sleeps). */
  let waits: number[] = [];
  async function setup() {
    waits = [];
    omsMode = 'accepting';
    receipts = createJobReceipts();
    t = await openTestStore(kind);
    const instruments = parseInstruments('BTCUSDT,ETHUSDT');
    venue = await openPaperVenue({ kv: t.store.kv, instruments, clock });
    market = await createSyntheticFeed({ instruments, seed: 7 }).next(NOW);
    lines = [];
    const events = { emit: (line: EventLine) => lines.push(JSON.stringify(line)) };
    const accountChanged = async () => {};
    execute = createOrderExecution({
      venue,
      store: t.store,
      clock,
      mode: 'paper',
      events,
      fillAudit: createFillAudit({ store: t.store, events, clock, log: pino({ level: 'silent' }) }),
      gate: createOrderGate({
        control: t.store.control,
        clock,
        secret: SECRET,
        ledger: new UsedTokenLedger(),
      }),
      completeCommand: createCommandCompletion({ store: t.store, clock, events, accountChanged, log: () => {} }),
      receipts,
      market: async () => market,
      accountChanged,
      log: pino({ level: 'silent' }),
      sleep: async (ms) => void waits.push(ms),
    });
  }

  function order(overrides: Partial<OrderRequest> = {}): OrderRequest {
    const bid = market.get('BTCUSDT')!.bid;
    return {
      clientOrderId: `test-${++seq}`,
      symbol: 'BTCUSDT',
      side: 'BUY',
      qty: 0.01,
      type: 'limit',
      limitPrice: bid,
      reduceOnly: false,
      ...overrides,
    };
  }
  const approve = (o: OrderRequest, epoch = 0, expiresAt = NOW + 10_000) =>
    signApproval(o, { secret: SECRET, epoch, expiresAt });
  const submit = async (approvals: ApprovedOrder[], signal = new AbortController().signal) =>
    (
      await execute(
        { kind: 'submit', purpose: 'cycle', cycle: 1, approvals, replyTo: undefined as never },
        { signal, mode: () => omsMode },
      )
    ).outcomes;

  it('submits a valid approval exactly once', async () => {
    await setup();
    const approval = approve(order());
    const [first] = await submit([approval]);
    expect(first).toMatchObject({ status: 'submitted', venueStatus: 'open' });
    expect(await venue.openOrders()).toHaveLength(1);
    expect(lines.map((l) => JSON.parse(l).event)).toEqual(['order_submitted']);
    const [replay] = await submit([approval]);
    expect(replay).toMatchObject({ status: 'refused', code: 'TOKEN_REPLAYED' });
    expect(await venue.openOrders()).toHaveLength(1);
  });

  it.each<[string, (a: ApprovedOrder) => ApprovedOrder, string]>([
    ['a changed qty', (a) => ({ ...a, order: { ...a.order, qty: 1 } }), 'TOKEN_INVALID'],
    ['a changed side', (a) => ({ ...a, order: { ...a.order, side: 'SELL' } }), 'TOKEN_INVALID'],
    ['a changed symbol', (a) => ({ ...a, order: { ...a.order, symbol: 'ETHUSDT' } }), 'TOKEN_INVALID'],
    ['a changed limit price', (a) => ({ ...a, order: { ...a.order, limitPrice: 1 } }), 'TOKEN_INVALID'],
    ['reduce-only flipped', (a) => ({ ...a, order: { ...a.order, reduceOnly: true } }), 'TOKEN_INVALID'],
    ['a later expiry', (a) => ({ ...a, expiresAt: a.expiresAt + 60_000 }), 'TOKEN_INVALID'],
    ['no token', (a) => ({ ...a, token: '' }), 'TOKEN_MALFORMED'],
    [
      'a token from another secret',
      (a) => signApproval(a.order, { secret: generateKey(), epoch: a.epoch, expiresAt: a.expiresAt }),
      'TOKEN_INVALID',
    ],
    [
      'an expired token',
      (a) => signApproval(a.order, { secret: SECRET, epoch: a.epoch, expiresAt: NOW - 1 }),
      'TOKEN_EXPIRED',
    ],
  ])('refuses %s and sends nothing to the venue', async (_label, tamper, code) => {
    await setup();
    const [outcome] = await submit([tamper(approve(order()))]);
    expect(outcome).toMatchObject({ status: 'refused', code });
    expect(await venue.openOrders()).toHaveLength(0);
    // The refusal is reported; nothing reached the venue, so there is no order_submitted.
    expect(lines.map((l) => JSON.parse(l).event)).toEqual(['order_refused']);
  });

  it('refuses an approval from before a pause, even before this process heard of the pause, and after the resume', async () => {
    await setup();
    const approval = approve(order(), 0);
    await applyControl(t.store.control, { type: 'control.pause', reason: 'test' }, who);
    expect((await submit([approval]))[0]).toMatchObject({ status: 'refused', code: 'TRADING_PAUSED' });
    await applyControl(t.store.control, { type: 'control.resume', reason: 'test' }, who);
    expect((await submit([approve(order(), 0)]))[0]).toMatchObject({ status: 'refused', code: 'EPOCH_STALE' });
    expect((await submit([approve(order(), 2)]))[0]).toMatchObject({ status: 'submitted' });
    expect(await venue.openOrders()).toHaveLength(1);
  });

  it("a command's submission passes while killed only when it is reduce-only", async () => {
    await setup();
    await applyControl(t.store.control, { type: 'control.kill', reason: 'test' }, who);
    omsMode = 'stopped';
    const asCommand = async (o: OrderRequest) =>
      (
        await execute(
          { kind: 'submit', purpose: 'command', cycle: 0, approvals: [approve(o, 1)], replyTo: undefined as never },
          { signal: new AbortController().signal, mode: () => omsMode },
        )
      ).outcomes[0];
    expect(await asCommand(order({ type: 'market', limitPrice: null }))).toMatchObject({
      status: 'refused',
      code: 'NOT_REDUCE_ONLY',
    });
    expect(await venue.openOrders()).toHaveLength(0);
    // Reduce-only passes the gate in every state (the venue then finds nothing to reduce).
    const reduce = await asCommand(order({ type: 'market', limitPrice: null, side: 'SELL', reduceOnly: true }));
    expect(reduce).toMatchObject({ status: 'submitted' });
  });

  it('refuses as soon as this process knows of a pause or kill (order manager mode), before the store is even checked', async () => {
    await setup();
    omsMode = 'halted';
    expect((await submit([approve(order())]))[0]).toMatchObject({ status: 'refused', code: 'TRADING_PAUSED' });
    omsMode = 'stopped';
    expect((await submit([approve(order())]))[0]).toMatchObject({ status: 'refused', code: 'TRADING_KILLED' });
    expect(await venue.openOrders()).toHaveLength(0);
  });

  it('refuses everything once killed, and honours an abort between approvals', async () => {
    await setup();
    const controller = new AbortController();
    controller.abort();
    expect((await submit([approve(order())], controller.signal))[0]).toMatchObject({
      status: 'refused',
      code: 'ABORTED',
    });
    await applyControl(t.store.control, { type: 'control.kill', reason: 'test' }, who);
    expect((await submit([approve(order(), 1)]))[0]).toMatchObject({ status: 'refused', code: 'TRADING_KILLED' });
    expect(await venue.openOrders()).toHaveLength(0);
  });

  it('a cancel, whoever asked for it, is an event line, one orders_cancelled audit entry, and settles its receipt', async () => {
    await setup();
    await submit([approve(order()), approve(order())]);
    const { id, done } = receipts.open();
    const before = await t.store.events.count();
    await execute(
      { kind: 'cancel', reason: 'drawdown_breach', symbols: ['BTCUSDT'], command: null, receipt: id, key: null },
      { signal: new AbortController().signal, mode: () => omsMode },
    );
    expect((await done).map((o) => o.symbol)).toEqual(['BTCUSDT', 'BTCUSDT']);
    expect(await venue.openOrders()).toHaveLength(0);
    expect(lines.filter((l) => l.includes('"orders_cancelled"'))).toHaveLength(1);
    const entries = await t.store.events.query({ limit: 10 });
    expect(entries.filter((e) => e.seq > before).map((e) => [e.kind, e.body.reason])).toEqual([
      ['orders_cancelled', 'drawdown_breach'],
    ]);
  });

  it('on a venue that takes them side by side, orders of different symbols are submitted at once; one symbol’s stay in order', async () => {
    await setup();
    const started: string[] = [];
    let ethStarted = false;
    let markEthStarted = (): void => {};
    const ethStarts = new Promise<void>((resolve) => (markEthStarted = resolve));
    const submitAtVenue = venue.submit.bind(venue);
    let overlapped = false;
    Object.assign(venue, {
      parallelSymbols: true,
      submit: async (o: OrderRequest, m: MarketView) => {
        started.push(o.clientOrderId);
        if (o.symbol === 'ETHUSDT') {
          ethStarted = true;
          markEthStarted();
        } else if (!ethStarted) {
          // BTC's submission waits for ETH's to start: it can only if the two run side by side. The
          // bound (never reached when they do) turns a serial executor into a failure, not a hang;
          // a count of event-loop turns was too short on Redis, whose token checks take real I/O.
          let bound: NodeJS.Timeout | undefined;
          await Promise.race([ethStarts, new Promise((r) => (bound = setTimeout(r, 2_000)))]);
          clearTimeout(bound);
          overlapped ||= ethStarted;
        }
        return submitAtVenue(o, m);
      },
    });
    const btc1 = order();
    const btc2 = order();
    const eth = order({ symbol: 'ETHUSDT', limitPrice: market.get('ETHUSDT')!.bid });
    const outcomes = await submit([approve(btc1), approve(btc2), approve(eth)]);
    expect(overlapped).toBe(true);
    // In the approvals' order, every one submitted; BTC's two one after the other.
    expect(outcomes.map((o) => [o.clientOrderId, o.status])).toEqual([
      [btc1.clientOrderId, 'submitted'],
      [btc2.clientOrderId, 'submitted'],
      [eth.clientOrderId, 'submitted'],
    ]);
    expect(started.filter((id) => id !== eth.clientOrderId)).toEqual([btc1.clientOrderId, btc2.clientOrderId]);
  });

  it('a fill the venue found while cancelling (an order that filled on its way) is an order_filled line, once', async () => {
    await setup();
    const raced = order();
    const found = [
      {
        clientOrderId: raced.clientOrderId,
        symbol: 'BTCUSDT',
        side: 'BUY' as const,
        qty: 0.01,
        price: 1,
        fee: 0,
        liquidity: 'maker' as const,
        ts: NOW,
      },
    ];
    // The paper venue's cancel cannot race a fill; a live venue reports such fills through takeFills.
    Object.assign(venue, { takeFills: () => found.splice(0) });
    const cancel = () =>
      execute(
        { kind: 'cancel', reason: 'kill_switch', symbols: null, command: null, receipt: receipts.open().id, key: null },
        { signal: new AbortController().signal, mode: () => omsMode },
      );
    await cancel();
    await cancel();
    const events = lines.map((l) => JSON.parse(l) as { event: string; client_order_id?: string });
    expect(events.filter((l) => l.event === 'order_filled').map((l) => l.client_order_id)).toEqual([
      raced.clientOrderId,
    ]);
    expect(events.map((l) => l.event)).toEqual(['order_filled', 'orders_cancelled', 'orders_cancelled']);
    // And it is in the audit trail, once, as a fill found by a cancel (written behind the cancel).
    await vi.waitFor(async () =>
      expect(await t.store.events.query({ kind: 'order_filled', limit: 5 })).toHaveLength(1),
    );
    const [entry] = await t.store.events.query({ kind: 'order_filled', limit: 5 });
    expect(entry!.body).toMatchObject({ client_order_id: raced.clientOrderId, qty: 0.01, source: 'cancel' });
  });

  it("a command's cancel has the command's completion as its one audit entry", async () => {
    await setup();
    await submit([approve(order())]);
    const command = {
      id: 'kill-cancels-epoch-1',
      type: 'kill_cancels' as const,
      payload: killCancelsPayload(['BTCUSDT']),
      enqueued_at: new Date(NOW).toISOString(),
    };
    await t.store.commands.enqueue(command);
    const [claimed] = await t.store.commands.claim('t', { max: 1, leaseMs: 30_000, now: NOW });
    const before = await t.store.events.count();
    await execute(
      {
        kind: 'cancel',
        reason: 'kill_cancels',
        symbols: ['BTCUSDT'],
        command: claimed as never,
        receipt: null,
        key: command.id,
      },
      { signal: new AbortController().signal, mode: () => omsMode },
    );
    const entries = (await t.store.events.query({ limit: 10 })).filter((e) => e.seq > before);
    expect(entries.map((e) => e.kind)).toEqual(['command_executed']);
    expect(await t.store.commands.get(command.id)).toMatchObject({ status: 'done', result: { status: 'done' } });
    expect(await venue.openOrders()).toHaveLength(0);
  });

  it("a kill's cancel made at once and then its command are one venue call and one audit entry, the command's", async () => {
    await setup();
    await submit([approve(order()), approve(order())]);
    const context = { signal: new AbortController().signal, mode: () => omsMode };
    const command = {
      id: 'kill-cancels-epoch-4',
      type: 'kill_cancels' as const,
      payload: killCancelsPayload(['BTCUSDT', 'ETHUSDT']),
      enqueued_at: new Date(NOW).toISOString(),
    };
    await t.store.commands.enqueue(command);
    const [claimed] = await t.store.commands.claim('t', { max: 1, leaseMs: 30_000, now: NOW });
    const before = await t.store.events.count();
    let venueCalls = 0;
    const cancelAll = venue.cancelAll.bind(venue);
    venue.cancelAll = (symbols) => (venueCalls++, cancelAll(symbols));
    const keyed = { kind: 'cancel' as const, receipt: null, key: command.id };
    await execute({ ...keyed, reason: 'kill: operator', symbols: null, command: null }, context);
    await execute(
      { ...keyed, reason: 'kill_cancels', symbols: ['BTCUSDT', 'ETHUSDT'], command: claimed as never },
      context,
    );
    expect(venueCalls).toBe(1);
    expect(lines.filter((l) => l.includes('"orders_cancelled"'))).toHaveLength(1);
    const entries = (await t.store.events.query({ limit: 10 })).filter((e) => e.seq > before);
    expect(entries.map((e) => e.kind)).toEqual(['command_executed']);
    const done = await t.store.commands.get(command.id);
    expect((done?.result as { cancelled: unknown[] }).cancelled).toHaveLength(2);
  });

  /** ETH's cancels fail (an exchange answering 503) `times` times; BTC's always go through. */
  function ethFails(times: number) {
    const cancelAll = venue.cancelAll.bind(venue);
    let left = times;
    venue.cancelAll = async (symbols) => {
      if ((symbols ?? ['ETHUSDT']).includes('ETHUSDT') && left-- > 0) throw new Error('503 Internal error (-1001)');
      return cancelAll(symbols);
    };
  }
  const eth = () => order({ symbol: 'ETHUSDT', limitPrice: market.get('ETHUSDT')!.bid, qty: 0.1 });
  const killCancels = async (id: string) => {
    const command = {
      id,
      type: 'kill_cancels' as const,
      payload: killCancelsPayload(['BTCUSDT', 'ETHUSDT']),
      enqueued_at: new Date(NOW).toISOString(),
    };
    await t.store.commands.enqueue(command);
    const [claimed] = await t.store.commands.claim('t', { max: 1, leaseMs: 30_000, now: NOW });
    return execute(
      {
        kind: 'cancel',
        reason: 'kill_cancels',
        symbols: ['BTCUSDT', 'ETHUSDT'],
        command: claimed as never,
        receipt: null,
        key: command.id,
      },
      { signal: new AbortController().signal, mode: () => omsMode },
    );
  };

  it("a kill's cancels go through a symbol's failures: retried within seconds, per symbol", async () => {
    await setup();
    await submit([approve(order()), approve(eth())]);
    ethFails(2);
    await killCancels('kill-cancels-epoch-7');
    expect(await venue.openOrders()).toEqual([]);
    expect(waits).toEqual([250, 500]);
    expect(await t.store.commands.get('kill-cancels-epoch-7')).toMatchObject({ status: 'done' });
  });

  it("a symbol that keeps failing does not hold up another's cancel; the command is left to be retried", async () => {
    await setup();
    await submit([approve(order()), approve(eth())]);
    ethFails(1_000);
    await expect(killCancels('kill-cancels-epoch-8')).rejects.toThrow(/cancel failed for ETHUSDT after 6 tries/);
    expect((await venue.openOrders()).map((o) => o.symbol)).toEqual(['ETHUSDT']);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThan(10_000);
    expect(await t.store.commands.get('kill-cancels-epoch-8')).toMatchObject({ status: 'claimed' });
  });
});
