/**
 * Whether the exchange answers (issue 21, item 5: "an exchange that stops answering is a halt, like a
 * lost store"), judged from every request the ccxt client sends — orders, reads, the countdown, a
 * probe — by hooking its transport once (`fetch`, and `onRestResponse` for the HTTP status):
 *  - silence: a request that got no answer by its deadline (RequestTimeout), a dropped or refused
 *    connection (NetworkError), an answer with a 5xx status (the exchange is there but not working);
 *  - an answer: anything else — a 2xx, and also a refusal (400 bad order, 404 unknown order,
 *    429/418 rate limit, 401 keys): the exchange looked at the request.
 * Silence starts at the send time of the first request that failed after the last answer (not when
 * its deadline passed), and any answer ends it. The safety monitor asks for it every tick
 * (src/application/safety-monitor.ts); asking also probes the exchange (`fetchTime`, a public call
 * of weight 1) when it is silent or has not answered for `probeIdleMs`, one probe at a time and
 * never awaited — a halted process runs no cycle, so without the probe nothing would see the
 * exchange come back, and the monitor's tick must not wait out an exchange deadline.
 */
import type { Exchange } from 'ccxt';
import type { CcxtErrorClasses } from './exchange-errors.js';

/** The ccxt error classes the judgement needs (the ccxt module has them). */
type ReachabilityErrorClasses = Pick<CcxtErrorClasses, 'NetworkError' | 'DDoSProtection'>;

export interface ExchangeSilence {
  /** How long (ms) the exchange has not answered: since the first unanswered request was sent. */
  forMs: number;
  /** The last failure, one line (the exchange's URL and the failure; never a key or a signature). */
  error: string;
}

export interface ExchangeReachability {
  /** The current silence (null: the exchange answers); starts a probe when one is due. */
  silence(): ExchangeSilence | null;
  /** True while a probe this watch started is in flight. */
  probing(): boolean;
}

export interface ReachabilityOptions {
  now(): number;
  /** Probe an exchange nothing else has heard from for this long (ms). Default 5 s. */
  probeIdleMs?: number;
}

type Fetch = (url: string, method?: string, headers?: unknown, body?: unknown) => Promise<unknown>;
type OnRestResponse = (status: number, ...rest: unknown[]) => string;

/** Hooks `exchange`'s transport (once per client) and watches whether it answers. */
export function watchReachability(
  exchange: Exchange,
  errors: ReachabilityErrorClasses,
  options: ReachabilityOptions,
): ExchangeReachability {
  const probeIdleMs = options.probeIdleMs ?? 5_000;
  let lastAnswerAt = options.now();
  let failingSince: number | null = null;
  let lastError = '';
  let probe: Promise<unknown> | null = null;

  const answered = () => {
    lastAnswerAt = Math.max(lastAnswerAt, options.now());
    failingSince = null;
  };
  const failed = (sentAt: number, error: string) => {
    // A request sent before the last answer says nothing about the time before that answer.
    failingSince ??= Math.max(sentAt, lastAnswerAt);
    lastError = error;
  };

  const hooked = exchange as unknown as { fetch: Fetch; onRestResponse: OnRestResponse };
  const fetch = hooked.fetch.bind(exchange);
  const onRestResponse = hooked.onRestResponse.bind(exchange);
  hooked.onRestResponse = (status, ...rest) => {
    if (status >= 500) failed(options.now(), `HTTP ${status} from the exchange`);
    else answered();
    return onRestResponse(status, ...rest);
  };
  hooked.fetch = async (url, method, headers, body) => {
    const sentAt = options.now();
    try {
      return await fetch(url, method, headers, body);
    } catch (err) {
      // Rate limits are answers (DDoSProtection is a NetworkError in ccxt's tree); a 5xx was judged above.
      if (err instanceof errors.NetworkError && !(err instanceof errors.DDoSProtection)) failed(sentAt, oneLine(err));
      throw err;
    }
  };

  const startProbe = () => {
    probe = exchange
      .fetchTime()
      .catch(() => undefined) // judged by the hooks above
      .finally(() => {
        probe = null;
      });
  };

  return {
    silence() {
      const now = options.now();
      if (probe === null && (failingSince !== null || now - lastAnswerAt >= probeIdleMs)) startProbe();
      return failingSince === null ? null : { forMs: Math.max(0, now - failingSince), error: lastError };
    },
    probing: () => probe !== null,
  };
}

function oneLine(err: unknown): string {
  return String(err instanceof Error ? err.message : err)
    .split('\n')[0]!
    .slice(0, 200);
}
