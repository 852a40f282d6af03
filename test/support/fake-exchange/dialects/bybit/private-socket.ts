/**
 * Bybit v5's private WebSocket on the fake exchange (docs: WebSocket Connect, "Authentication";
 * WebSocket private "Order" and "Dcp"; Set Disconnect Cancel All), at /v5/private, the path of
 * ccxt pro's `urls.api.ws.private.contract`:
 *  - `{"op":"auth","args":[key, expires, signature]}`, the signature hex HMAC-SHA256 with the secret
 *    of "GET/realtime" + expires (ms, in the future): answered `{"success":true,"ret_msg":"","op":"auth",…}`,
 *    or `success: false` for a wrong key, signature or an expired `expires`;
 *  - `{"op":"ping","req_id":…}` answered `{"op":"pong","req_id":…,"args":[ms],…}` (the private
 *    stream's pong; ccxt pro sends one every 18 s and drops a connection whose pongs stop);
 *  - `{"op":"subscribe","req_id":…,"args":[topics]}`: private topics only after auth; `order`
 *    pushes each of the account's orders when its status or filled quantity changes, in GET
 *    /v5/order/realtime's shape with `category`; `dcp.future` pushes nothing, it only counts;
 *  - DCP: after POST /v5/order/disconnected-cancel-all (product DERIVATIVES) sets a window, once
 *    every connection subscribed to `dcp.future` is gone (closed, dropped) the window runs; a new
 *    subscription within it stops it, else every open order is cancelled — conditional (stop)
 *    orders too, the pessimistic reading of "all active orders" (Bybit does not say; docs/operate/bybit.md).
 * The window runs on the engine's countdowns (../../countdown.ts), so whatever settles the engine
 * applies it at the fake's time, as Binance's countdownCancelAll is applied.
 * Left out: heartbeats missed on an open connection (Bybit counts a connection without pings as
 * gone), the `execution`/`position`/`wallet` topics, and the per-account limit of connections.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import type { DialectSocket, DialectSocketDeps } from '../../dialect.js';
import { FAKE_INSTRUMENTS } from '../../market-data.js';
import { order } from './shapes.js';

/** ccxt pro's `urls.api.ws.private.contract` path (…/v5/private). */
export const BYBIT_PRIVATE_PATH = '/v5/private';
/** The topics that need an authenticated connection (docs: WebSocket private). */
const PRIVATE_TOPICS = new Set(['order', 'execution', 'position', 'wallet', 'dcp.future', 'dcp.spot', 'dcp.option']);
const DCP_TOPIC = 'dcp.future';

interface Connection {
  id: string;
  authed: boolean;
  topics: Set<string>;
}

export class BybitPrivateSocket implements DialectSocket {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly connections = new Map<WebSocket, Connection>();
  /** What was pushed per order: its status and filled quantity. */
  private readonly pushed = new Map<number, string>();
  private windowMs: number | null = null;
  /** Whether the DCP window runs now (every dcp.future connection gone): the countdowns are armed. */
  private running = false;
  /** Whether a dcp.future connection has been seen (DCP runs from a disconnection, not from the start). */
  private everSubscribed = false;
  /** The refusal fault: upgrades answered 503. */
  private refusing = false;
  private made = 0;

  constructor(private readonly deps: DialectSocketDeps) {}

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    if (new URL(req.url ?? '/', 'http://fake').pathname !== BYBIT_PRIVATE_PATH) return false;
    if (this.refusing) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n\r\n');
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: Connection = { id: `fakeconn-${++this.made}`, authed: false, topics: new Set() };
      this.connections.set(ws, connection);
      ws.on('message', (data: Buffer) => this.answer(ws, connection, data.toString('utf8')));
      const gone = () => {
        this.connections.delete(ws);
        this.applyDcp();
      };
      ws.on('close', gone);
      ws.on('error', gone);
    });
    return true;
  }

  setDisconnectWindow(ms: number): void {
    this.windowMs = ms;
    this.applyDcp();
  }

  subscribed(topic: string): number {
    return [...this.connections.values()].filter((c) => c.authed && c.topics.has(topic)).length;
  }

  /** Pushes every order whose status or filled quantity changed since the last call. */
  sync(): void {
    if (this.subscribed('order') === 0) return;
    for (const o of this.deps.venue().allOrders()) {
      const key = `${o.status}:${o.executedQty}`;
      if (this.pushed.get(o.orderId) === key) continue;
      this.pushed.set(o.orderId, key);
      const message = {
        id: `fake-${o.orderId}-${key}`,
        topic: 'order',
        creationTime: this.deps.now(),
        data: [{ category: 'linear', ...order(o) }],
      };
      this.send('order', message);
    }
  }

  refuse(refusing: boolean): void {
    this.refusing = refusing;
  }

  drop(): void {
    for (const ws of this.connections.keys()) ws.terminate();
  }

  reset(): void {
    this.drop();
    this.connections.clear();
    this.pushed.clear();
    this.windowMs = null;
    this.running = false;
    this.everSubscribed = false;
    this.refusing = false;
  }

  close(): void {
    this.drop();
    this.wss.close();
  }

  private answer(ws: WebSocket, connection: Connection, text: string): void {
    let request: { op?: unknown; req_id?: unknown; args?: unknown };
    try {
      request = JSON.parse(text) as typeof request;
    } catch {
      return reply(ws, { success: false, ret_msg: 'error:invalid op', conn_id: connection.id, request: null });
    }
    const reqId = request.req_id === undefined ? {} : { req_id: request.req_id };
    const args = Array.isArray(request.args) ? request.args.map(String) : [];
    if (request.op === 'ping')
      return reply(ws, { ...reqId, op: 'pong', args: [String(this.deps.now())], conn_id: connection.id });
    if (request.op === 'auth') {
      connection.authed = this.signed(args);
      return reply(ws, {
        success: connection.authed,
        ret_msg: connection.authed ? '' : 'error:USVC1111',
        op: 'auth',
        conn_id: connection.id,
      });
    }
    if (request.op === 'subscribe') {
      const allowed = args.length > 0 && args.every((t) => connection.authed || !PRIVATE_TOPICS.has(t));
      if (allowed) for (const topic of args) connection.topics.add(topic);
      reply(ws, {
        success: allowed,
        ret_msg: allowed ? '' : 'Request not authorized',
        conn_id: connection.id,
        ...reqId,
        op: 'subscribe',
      });
      this.applyDcp();
      return;
    }
    reply(ws, { success: false, ret_msg: 'error:invalid op', conn_id: connection.id, ...reqId, op: request.op });
  }

  /** docs: Authentication, "expires" in the future and the signature of "GET/realtime" + expires. */
  private signed([key, expires, signature]: string[]): boolean {
    const { apiKey, secret } = this.deps.credentials;
    if (key !== apiKey || !expires || !signature || Number(expires) <= this.deps.now()) return false;
    const expected = createHmac('sha256', secret).update(`GET/realtime${expires}`).digest('hex');
    return expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
  }

  /**
   * Starts the DCP window when the last dcp.future connection is gone, stops it when one is back
   * (docs: Dcp, "for those private connections subscribing dcp topic are all dead, then DCP will be
   * triggered"). No window set: nothing.
   */
  private applyDcp(): void {
    const alive = this.subscribed(DCP_TOPIC) > 0;
    if (alive) this.everSubscribed = true;
    if (this.windowMs === null) return;
    const countdowns = this.deps.venue().countdowns;
    const now = this.deps.now();
    if (!alive && !this.running) {
      this.running = this.everSubscribed;
      if (this.running) for (const i of FAKE_INSTRUMENTS) countdowns.arm(i.id, this.windowMs, now, true);
    } else if (alive) {
      if (this.running) for (const i of FAKE_INSTRUMENTS) countdowns.arm(i.id, 0, now);
      this.running = false;
    }
  }

  private send(topic: string, message: unknown): void {
    const text = JSON.stringify(message);
    for (const [ws, c] of this.connections) if (c.authed && c.topics.has(topic)) ws.send(text);
  }
}

function reply(ws: WebSocket, message: Record<string, unknown>): void {
  ws.send(JSON.stringify(message));
}
