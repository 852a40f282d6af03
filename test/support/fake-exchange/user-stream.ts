/**
 * Binance USDⓈ-M's user-data stream, on the fake exchange (issue 32, item 8):
 *  - `POST/PUT/DELETE /fapi/v1/listenKey` (API key only, no signature; weight 1): POST answers the
 *    account's active key (extended 60 min) or a new one; PUT extends it (-1125 when it does not
 *    exist); DELETE closes it and its connections;
 *  - a WebSocket at `/private/ws?listenKey=…`, the path ccxt pro's binanceusdm derives from its
 *    `urls.api.ws.future` (…/ws → …/private/ws), pushing `ORDER_TRADE_UPDATE` (x NEW, TRADE,
 *    CANCELED, EXPIRED) and `ACCOUNT_UPDATE` in Binance's documented shapes whenever the engine
 *    changes an order or a position: `sync()` diffs the venue's orders and trades since the last
 *    call (the server calls it after each request and on its 10 ms clock), so every path that
 *    changes an order (a fill on a price move, a cancel, a countdown, an expiry) is pushed alike.
 *    The trade id (`t`) is the one GET /fapi/v1/userTrades shows, as on the exchange.
 *  - faults: `drop()` closes every connection (a network drop); `expireKey()` expires the key
 *    (`listenKeyExpired` is pushed, then the connections are closed, as Binance does).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { BinanceError } from './binance-errors.js';
import type { OrderRecord, TradeRecord, Venue } from './venue.js';

/** A listen key is valid for 60 minutes after its last keepalive. */
const KEY_VALIDITY_MS = 60 * 60_000;
/** The path ccxt pro connects to for the futures private stream. */
export const USER_STREAM_PATH = '/private/ws';

export class FakeUserStream {
  private readonly wss = new WebSocketServer({ noServer: true });
  private key: { value: string; expiresAt: number } | null = null;
  private readonly sockets = new Set<WebSocket>();
  /** What was pushed per order: its status and filled quantity. */
  private readonly pushed = new Map<number, { status: string; filled: number }>();
  private tradesPushed = 0;
  private keys = 0;
  /** Every event pushed, for a test (the `e` and the order's client id when there is one). */
  readonly events: Array<{ e: string; c?: string; x?: string }> = [];
  /** Connections accepted so far (a reconnect adds one). */
  connections = 0;

  constructor(
    private readonly venue: () => Venue,
    private readonly now: () => number,
  ) {}

  /** The listen key endpoints (the caller checked the API key). */
  listenKey(method: string): unknown {
    const now = this.now();
    const active = this.key && this.key.expiresAt > now ? this.key : null;
    if (method === 'POST') {
      this.key = active ?? { value: `fakeListenKey${++this.keys}${now.toString(36)}`, expiresAt: 0 };
      this.key.expiresAt = now + KEY_VALIDITY_MS;
      return { listenKey: this.key.value };
    }
    if (!active) throw new BinanceError(400, -1125, 'This listenKey does not exist.');
    if (method === 'PUT') {
      active.expiresAt = now + KEY_VALIDITY_MS;
      return { listenKey: active.value };
    }
    this.key = null;
    this.closeAll();
    return {};
  }

  /** An upgrade request: accepted on the private path with the active key, else refused. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const key = url.searchParams.get('listenKey');
    const valid = this.key !== null && this.key.value === key && this.key.expiresAt > this.now();
    if (url.pathname !== USER_STREAM_PATH || !valid) {
      socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.connections++;
      this.sockets.add(ws);
      ws.on('close', () => this.sockets.delete(ws));
      ws.on('error', () => this.sockets.delete(ws));
      // ccxt answers the server's pings itself; a message from the client is not expected.
    });
  }

  /** Pushes what changed since the last call; expires the key when its hour is up. */
  sync(): void {
    const now = this.now();
    if (this.key && this.key.expiresAt <= now) this.expireKey();
    const venue = this.venue();
    const orders = venue.allOrders();
    for (const order of orders) {
      if (this.pushed.has(order.orderId)) continue;
      this.pushed.set(order.orderId, { status: 'NEW', filled: 0 });
      this.push(orderUpdate(order, 'NEW', 'NEW', 0, null, now));
    }
    const trades = venue.trades();
    for (const trade of trades.slice(this.tradesPushed)) {
      const order = orders.find((o) => o.orderId === trade.orderId);
      const seen = this.pushed.get(trade.orderId);
      if (!order || !seen) continue;
      seen.filled = round8(seen.filled + trade.qty);
      seen.status = seen.filled >= order.origQty - 1e-12 ? 'FILLED' : 'PARTIALLY_FILLED';
      this.push(orderUpdate(order, 'TRADE', seen.status, seen.filled, trade, now));
      this.push(accountUpdate(venue, order.symbol, now));
    }
    this.tradesPushed = trades.length;
    for (const order of orders) {
      const seen = this.pushed.get(order.orderId)!;
      if ((order.status === 'CANCELED' || order.status === 'EXPIRED') && seen.status !== order.status) {
        seen.status = order.status;
        this.push(orderUpdate(order, order.status, order.status, seen.filled, null, now));
      }
    }
  }

  /** A fault: every connection closes (the client sees a dropped stream). */
  drop(): void {
    this.closeAll();
  }

  /** A fault (or the hour being up): `listenKeyExpired` is pushed, the key ends, the connections close. */
  expireKey(): void {
    if (!this.key) return;
    this.push({ e: 'listenKeyExpired', E: this.now(), listenKey: this.key.value });
    this.key = null;
    this.closeAll();
  }

  /** A fresh exchange: no key, no connection, nothing pushed. */
  reset(): void {
    this.key = null;
    this.closeAll();
    this.pushed.clear();
    this.tradesPushed = 0;
    this.events.length = 0;
    this.connections = 0;
  }

  close(): void {
    this.closeAll();
    this.wss.close();
  }

  private closeAll(): void {
    for (const ws of this.sockets) ws.terminate();
    this.sockets.clear();
  }

  private push(event: Record<string, unknown>): void {
    const o = event['o'] as { c?: string; x?: string } | undefined;
    this.events.push({ e: String(event['e']), ...(o?.c ? { c: o.c } : {}), ...(o?.x ? { x: o.x } : {}) });
    const text = JSON.stringify(event);
    for (const ws of this.sockets) ws.send(text);
  }
}

/** ORDER_TRADE_UPDATE as Binance documents it (one-way mode: ps BOTH). */
function orderUpdate(
  order: OrderRecord,
  x: string,
  status: string,
  filled: number,
  trade: TradeRecord | null,
  now: number,
): Record<string, unknown> {
  const at = trade?.time ?? now;
  return {
    e: 'ORDER_TRADE_UPDATE',
    E: now,
    T: at,
    o: {
      s: order.symbol,
      c: order.clientOrderId,
      S: order.side,
      o: order.type,
      f: order.timeInForce,
      q: String(order.origQty),
      p: String(order.price),
      ap: filled > 0 ? String(round8(order.cumQuote / order.executedQty)) : '0',
      sp: '0',
      x,
      X: status,
      i: order.orderId,
      l: trade ? String(trade.qty) : '0',
      z: String(filled),
      L: trade ? String(trade.price) : '0',
      ...(trade ? { N: 'USDT', n: String(trade.commission) } : {}),
      T: at,
      t: trade ? trade.id : 0,
      b: '0',
      a: '0',
      m: trade ? trade.maker : false,
      R: order.reduceOnly,
      wt: 'CONTRACT_PRICE',
      ot: order.type,
      ps: 'BOTH',
      cp: false,
      rp: trade ? String(trade.realizedPnl) : '0',
      pP: false,
      si: 0,
      ss: 0,
      V: 'EXPIRE_TAKER',
      pm: 'NONE',
      gtd: 0,
    },
  };
}

/** ACCOUNT_UPDATE after an order's trade: the wallet and the symbol's position. */
function accountUpdate(venue: Venue, symbol: string, now: number): Record<string, unknown> {
  const figures = venue.account();
  const position = venue.ledger.position(symbol);
  const held = figures.positions.find((p) => p.symbol === symbol);
  return {
    e: 'ACCOUNT_UPDATE',
    E: now,
    T: now,
    a: {
      m: 'ORDER',
      B: [{ a: 'USDT', wb: String(figures.wallet), cw: String(figures.wallet), bc: '0' }],
      P: [
        {
          s: symbol,
          pa: String(position.qty),
          ep: String(position.entryPrice),
          bep: String(position.entryPrice),
          cr: '0',
          up: String(held?.unrealized ?? 0),
          mt: 'cross',
          iw: '0',
          ps: 'BOTH',
        },
      ],
    },
  };
}

function round8(x: number): number {
  return Math.round(x * 1e8) / 1e8;
}
