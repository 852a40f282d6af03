/**
 * One gate for every request the exchange client sends (issue 32, item 3): orders, cancels, account
 * reads, the markets, the countdown, the reachability probe — all go through ccxt's transport
 * (`fetch`), so the gate hooks it once per client. Which answers ask to wait or ban is the
 * exchange profile's reading (`readAnswer`: Binance's 429 and 418, Bybit's HTTP 200 retCode 10006 and
 * its 403): after a wait nothing is sent until its Retry-After (or the end it names) has passed;
 * after a ban nothing until the ban's end. Binance escalates bans (2 minutes to 3 days) for repeat
 * offenders, so the wait is the exchange's, never capped.
 * A request the gate holds back fails at once with RequestWithheldError (judged `rate_limited` by
 * ./exchange-errors.ts: nothing was sent, so it is never an unknown outcome).
 *
 * The wait is timed on the monotonic clock (a wall clock stepped back an hour must not hold requests
 * an hour longer, nor one stepped forward end a ban early). The wall clock only names the ban's end
 * for people: the exchange's own time when the answer names it (Binance's 418 body "IP banned until <epoch ms>").
 * A ban stands (`ban()`, a safety halt: src/application/safety-monitor.ts) until the exchange
 * answers a request sent after its end with anything but a wait or a ban: its time passing is not enough,
 * since the exchange may have extended it.
 *
 * Binance limits and bans an IP (and weighs an account), not a client: one gate serves every ccxt
 * client of one exchange account (`install` on each: the venue's and the live market feed's), so
 * what one client is told holds back the others.
 *
 * Before any of that, the account's request-weight budget (./weight-budget.ts), by the exchange
 * profile's `weights` (src/adapters/exchanges/<id>.ts): every answer's used-weight header is read
 * (Binance: X-MBX-USED-WEIGHT-1M), the limit comes from the answer that tells it (exchangeInfo), and a
 * request whose weight (ccxt's cost for it, corrected where ccxt rounds) would pass the budget is
 * withheld the same way, before ccxt's throttle queues it: reads and openings above 80 % of the
 * limit, closes and cancels only at the limit itself, so a kill is never starved by polling. A client
 * of no supported exchange (a bare transport) gets the plain HTTP 429/418 gate only.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Exchange } from 'ccxt';
import type { HeldKind, RequestWeight } from '../../domain/request-weight.js';
import { httpRateVerdict } from '../exchanges/answer-verdict.js';
import type { AnswerVerdict } from '../exchanges/answer-verdict.js';
import { bodyIn } from '../exchanges/error-body.js';
import type { ExchangeProfile } from '../exchanges/profile.js';
import { errorFieldsFor, findProfile } from '../exchanges/registry.js';
import { createWeightBudget } from './weight-budget.js';

/** Why requests are held back now, and for how long more. */
export interface RequestHold {
  kind: 'rate_limited' | 'banned';
  remainingMs: number;
  /** One line, e.g. `the exchange asked to wait 3 s more (429)`. */
  reason: string;
}

export interface RequestGate {
  /** The hold now, or null when requests may go. */
  hold(): RequestHold | null;
  /** The standing ban in one line (from a 418 until the exchange answers after its end), or null. */
  ban(): string | null;
  /** Hooks `exchange`'s transport (once per client): it sends nothing while the gate holds. */
  install(exchange: Exchange): void;
  /** The weight budget now and what it and the exchange's waits hold back (for /health and metrics). */
  weight(): RequestWeight;
}

export interface RequestGateOptions {
  /** Monotonic ms: how long the exchange asked us to wait is counted on it. */
  monotonic(): number;
  /** Wall time, epoch ms: to name a ban's end when the exchange's answer does not. */
  now(): number;
}

/** A request the gate did not send: the exchange asked to wait (429) or banned this IP (418). */
export class RequestWithheldError extends Error {
  override name = 'RequestWithheldError';
}

type Fetch = (url: string, method?: string, headers?: unknown, body?: unknown) => Promise<unknown>;
type Fetch2 = (
  path: string,
  api?: unknown,
  method?: string,
  params?: Record<string, unknown>,
  headers?: unknown,
  body?: unknown,
  config?: Record<string, unknown>,
) => Promise<unknown>;
type CostOf = (api: unknown, method: string, path: string, params: unknown, config: unknown) => number;
/** ccxt's hook on every REST answer (what the gate and ./exchange-clock.ts watch). */
export type OnRestResponse = (
  status: number,
  statusText: string,
  url: string,
  method: string,
  headers: unknown,
  body: unknown,
  ...rest: unknown[]
) => string;

interface Ban {
  /** The exchange's message, one line. */
  message: string;
  /** How the exchange said it (`418`, `403`). */
  label: string;
  /** The ban's end, epoch ms, for people. */
  untilWall: number;
  retryAfterS: number | null;
}

/** One client's gate: `createRequestGate` installed on `exchange`. */
export function gateRequests(exchange: Exchange, options: RequestGateOptions): RequestGate {
  const gate = createRequestGate(options);
  gate.install(exchange);
  return gate;
}

/** A gate for one exchange account, installed on none yet: holds every request while the exchange asked to wait. */
export function createRequestGate(options: RequestGateOptions): RequestGate {
  /** Monotonic ms until which nothing is sent. */
  let holdUntil = Number.NEGATIVE_INFINITY;
  let ban: Ban | null = null;
  const budget = createWeightBudget();
  /** Whether an answer has told the limit: a later client's profile default must not undo it. */
  let limitTold = false;
  const held: Record<HeldKind, number> = { read: 0, opening: 0, close: 0 };

  /** The profile of the exchange last installed on (a gate serves one account). */
  let profile: ExchangeProfile | null = null;
  /** How the exchange said its last "wait" (`429`, `retCode 10006`), for people. */
  let label = '429';

  /** An answer that asks to wait or bans (its profile's reading): nothing is sent until the wait ends. */
  const refused = (verdict: AnswerVerdict, text: string) => {
    const wallNow = options.now();
    // Retry-After first (a duration needs no agreement between clocks); the end the answer names without it.
    const waitMs =
      verdict.retryAfterS !== null
        ? verdict.retryAfterS * 1000
        : verdict.untilWall !== null
          ? Math.max(0, verdict.untilWall - wallNow)
          : verdict.fallbackMs;
    holdUntil = Math.max(holdUntil, options.monotonic() + waitMs);
    if (verdict.kind === 'banned')
      ban = {
        message: exchangeMessage(text, profile),
        label: verdict.label,
        untilWall: verdict.untilWall ?? wallNow + waitMs,
        retryAfterS: verdict.retryAfterS,
      };
    else label = verdict.label;
  };

  const gate: RequestGate = {
    hold() {
      const remainingMs = holdUntil - options.monotonic();
      if (remainingMs <= 0) return null;
      const seconds = Math.ceil(remainingMs / 1000);
      return ban
        ? {
            kind: 'banned',
            remainingMs,
            reason: `the exchange banned this IP until ${iso(ban.untilWall)} (${ban.label}); ${seconds} s more`,
          }
        : { kind: 'rate_limited', remainingMs, reason: `the exchange asked to wait ${seconds} s more (${label})` };
    },
    ban() {
      if (!ban) return null;
      const after = ban.retryAfterS === null ? '' : `, Retry-After ${ban.retryAfterS} s`;
      const line = `the exchange banned this IP until ${iso(ban.untilWall)} (${ban.label}${after}): ${ban.message}`;
      return gate.hold()
        ? `${line}; no request is sent until then`
        : `${line}; the ban has ended, waiting for an answer`;
    },
    weight() {
      const { used, limit, holding } = budget.usage(options.now());
      return {
        limit,
        used,
        share: used / limit,
        holding: gate.hold() || holding === 'all' ? 'all' : holding === 'other' ? 'reads_and_openings' : 'none',
        held: { ...held },
      };
    },
    install(exchange) {
      profile = findProfile(String((exchange as { id?: unknown }).id));
      const weights = profile?.weights ?? null;
      const closes = profile?.isClosing ?? (() => false);
      if (weights && !limitTold) budget.setLimit(weights.defaultLimitPerMinute);
      const hooked = exchange as unknown as {
        fetch: Fetch;
        fetch2: Fetch2;
        onRestResponse: OnRestResponse;
        calculateRateLimiterCost: CostOf;
      };
      const fetch = hooked.fetch.bind(exchange);
      const onRestResponse = hooked.onRestResponse.bind(exchange);
      hooked.onRestResponse = (status, statusText, url, method, headers, body, ...rest) => {
        const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
        const verdict = (profile?.readAnswer ?? httpRateVerdict)(status, headers, text);
        if (verdict && verdict.kind !== 'clock') refused(verdict, text);
        else ban = null; // answered: any ban has ended
        const used = weights?.usedWeightHeader ? usedWeight(headers, weights.usedWeightHeader) : null;
        if (used !== null) budget.observe(used, options.now());
        const limit = status === 200 && weights ? weights.limitFrom(url, body) : null;
        if (limit !== null) {
          budget.setLimit(limit);
          limitTold = true;
        }
        return onRestResponse(status, statusText, url, method, headers, body, ...rest);
      };
      hooked.fetch = async (url, method, headers, body) => {
        const hold = gate.hold();
        if (hold) {
          // Only a bare transport's requests get here held (fetch2 below holds and counts ccxt's first).
          held[method === 'GET' || method === undefined ? 'read' : method === 'DELETE' ? 'close' : 'opening']++;
          throw new RequestWithheldError(`not sent: ${hold.reason}: ${method ?? 'GET'} ${new URL(url).pathname}`);
        }
        return fetch(url, method, headers, body);
      };
      // A bare transport (no ccxt request layer) or an exchange without a profile: the 429/418 gate only.
      if (typeof hooked.fetch2 !== 'function' || !weights) return;
      const fetch2 = hooked.fetch2.bind(exchange);
      const costOf = hooked.calculateRateLimiterCost.bind(exchange);
      // ccxt's fetch2 knows the endpoint and its parameters (the weight, whether it closes), and
      // runs before its throttle: a request withheld here never waits in ccxt's queue.
      hooked.fetch2 = async (path, api = 'public', method = 'GET', params = {}, headers, body, config = {}) => {
        const weight = weights.weigh(api, path, costOf(api, method, path, params, config));
        const priority = closing.getStore() === true ? 'close' : closes(method, path, params) ? 'close' : 'other';
        const kind: HeldKind = priority === 'close' ? 'close' : method === 'GET' ? 'read' : 'opening';
        const hold = gate.hold();
        if (hold) {
          held[kind]++;
          throw new RequestWithheldError(`not sent: ${hold.reason}: ${method} ${path}`);
        }
        const over = budget.admit(weight, priority, options.now());
        if (over) {
          held[kind]++;
          throw new RequestWithheldError(`not sent: ${over.reason}: ${method} ${path}`);
        }
        try {
          return await fetch2(path, api, method, params, headers, body, config);
        } finally {
          budget.settle(weight);
        }
      };
    },
  };
  return gate;
}

/** Set while a close or a kill's work runs: every request it makes may use the whole budget. */
const closing = new AsyncLocalStorage<true>();

/**
 * Runs `work` as a close: its reads (a look-up by client id, the trades of the order, a flatten's
 * account read) share the reserve the budget keeps for closes and cancels. The budget is ours, not
 * the exchange's: a close it would hold back is a close refused for nothing (a 429 or a ban the
 * exchange gives still holds everything).
 */
export function asClose<T>(work: () => Promise<T>): Promise<T> {
  return closing.run(true, work);
}

/** The answer's used weight under `header` (lower case; ccxt hands the names capitalised), or null. */
function usedWeight(headers: unknown, header: string): number | null {
  for (const [name, value] of Object.entries((headers ?? {}) as Record<string, unknown>))
    if (name.toLowerCase() === header) {
      const used = Number(value);
      return Number.isFinite(used) ? used : null;
    }
  return null;
}

/** The exchange's message, one line (the `errorBody` message field; anything else, the body's start). */
function exchangeMessage(text: string, profile: ExchangeProfile | null): string {
  const body = bodyIn(text);
  const fields = errorFieldsFor(body, profile);
  const message = fields ? body?.[fields.message] : undefined;
  if (typeof message === 'string') return message.split('\n')[0]!.slice(0, 200);
  return text.split('\n')[0]!.slice(0, 200);
}

function iso(epochMs: number): string {
  return Number.isFinite(epochMs) ? new Date(epochMs).toISOString() : String(epochMs);
}
