/**
 * The last gate before the venue, on a real store and the real paper venue: nothing is submitted
 * without a valid token for the current epoch in the running state. Changing a signed field,
 * replaying, expiry, an old epoch, a pause or kill recorded in the store (even one this process
 * has not been told about yet) and an aborted job are all refused — and the venue sees nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createSyntheticFeed } from '../../src/adapters/market-data/index.js';
import { openPaperVenue } from '../../src/adapters/paper-venue/index.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import type { MarketView } from '../../src/domain/market.js';
import { signApproval } from '../../src/domain/order-token.js';
import type { ApprovedOrder, OrderRequest } from '../../src/domain/orders.js';
import { DEFAULT_RISK_LIMITS } from '../../src/domain/risk/risk-engine.js';
import { UsedTokenLedger } from '../../src/domain/used-token-ledger.js';
import type { Venue } from '../../src/ports/venue.js';
import { generateKey } from '../../src/domain/keys.js';
import { createEventLines } from '../../src/runtime/trading/event-lines.js';
import { createJobExecutor } from '../../src/runtime/trading/order-executor.js';
import type { JobExecutor } from '../../src/runtime/trading/order-executor.js';
import { TradingMetrics } from '../../src/runtime/trading/trading-metrics.js';
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

  async function setup() {
    omsMode = 'accepting';
    t = await openTestStore(kind);
    const instruments = parseInstruments('BTCUSDT,ETHUSDT');
    venue = await openPaperVenue({ kv: t.store.kv, instruments, clock });
    market = await createSyntheticFeed({ instruments, seed: 7 }).next(NOW);
    lines = [];
    execute = createJobExecutor({
      venue,
      store: t.store,
      clock,
      secret: SECRET,
      mode: 'paper',
      instruments: new Map(instruments.map((i) => [i.symbol, i])),
      riskLimits: DEFAULT_RISK_LIMITS,
      tokenTtlMs: 10_000,
      ledger: new UsedTokenLedger(),
      lines: createEventLines({ write: (l) => lines.push(l) }),
      metrics: new TradingMetrics(),
      market: async () => market,
      accountChanged: async () => {},
      log: pino({ level: 'silent' }),
      orderManagerMode: () => omsMode,
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
    (await execute({ kind: 'submit', cycle: 1, approvals, replyTo: undefined as never }, signal)).outcomes;

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
    expect(lines).toHaveLength(0);
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

  it('executes a deleverage command as a signed reduce-only order, also when killed, and completes it once', async () => {
    await setup();
    await submit([approve(order({ type: 'market', limitPrice: null, qty: 0.02 }))]);
    await applyControl(t.store.control, { type: 'control.kill', reason: 'test' }, who);
    const enqueued = await t.store.commands.enqueue({
      id: 'dlv-1',
      type: 'deleverage',
      payload: { symbol: 'BTCUSDT', reduce_pct: 0.5 },
      enqueued_at: who.at,
    });
    const [command] = await t.store.commands.claim('test', { max: 1, leaseMs: 1000, now: NOW });
    expect(command?.id).toBe(enqueued.record.id);
    await execute({ kind: 'command', command: command! }, new AbortController().signal);
    const done = await t.store.commands.get('dlv-1');
    expect(done).toMatchObject({ status: 'done', result: { status: 'submitted', side: 'SELL', qty: 0.01 } });
    expect((await venue.account(market)).positions.find((p) => p.symbol === 'BTCUSDT')?.qty).toBeCloseTo(0.01, 10);
    const [executed] = await t.store.events.query({ kind: 'command_executed', limit: 1 });
    expect(executed?.body).toMatchObject({ command_id: 'dlv-1', type: 'deleverage' });
  });

  it('retries a deleverage whose venue call failed, instead of refusing its own order id as a replay', async () => {
    await setup();
    await submit([approve(order({ type: 'market', limitPrice: null, qty: 0.02 }))]);
    const realSubmit = venue.submit.bind(venue);
    let failures = 1;
    venue.submit = async (o, m) => {
      if (failures-- > 0) throw new Error('store unreachable');
      return realSubmit(o, m);
    };
    await t.store.commands.enqueue({
      id: 'dlv-retry',
      type: 'deleverage',
      payload: { symbol: 'BTCUSDT', reduce_pct: 1 },
      enqueued_at: who.at,
    });
    const [first] = await t.store.commands.claim('test', { max: 1, leaseMs: 1000, now: NOW });
    await expect(execute({ kind: 'command', command: first! }, new AbortController().signal)).rejects.toThrow(
      'store unreachable',
    );
    expect((await t.store.commands.get('dlv-retry'))?.status).toBe('claimed');
    const [again] = await t.store.commands.claim('test', { max: 1, leaseMs: 1000, now: NOW + 5000 });
    await execute({ kind: 'command', command: again! }, new AbortController().signal);
    expect(await t.store.commands.get('dlv-retry')).toMatchObject({
      status: 'done',
      result: { status: 'submitted', qty: 0.02 },
    });
    expect((await venue.account(market)).positions.find((p) => p.symbol === 'BTCUSDT')?.qty ?? 0).toBe(0);
  });
});
