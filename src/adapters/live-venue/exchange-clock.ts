/**
 * The local clock against the exchange's while trading (issue 32, item 5). The start refuses a clock
 * more than half the recvWindow off (./account-check.ts); this keeps judging it after the start, as a
 * clock can drift or be stepped. ccxt signs with the exchange's time (`adjustForTimeDifference`), but
 * only as measured at loadMarkets, and every other stamp the system puts on a cycle, a candle or a risk
 * token is the local clock's: beyond half the recvWindow it is a halt (`exchange_clock_skew`, judged
 * by src/application/safety-monitor.ts), which ends once a measurement is within it again.
 *
 * Measured (ccxt fetchTime: Binance's GET /fapi/v1/time, weight 1) when the safety monitor asks and
 * one is due: every `periodMs`, every `skewedPeriodMs` while skewed (to see it end soon), and at once
 * after the exchange refused a request's timestamp (its profile's `readAnswer`: Binance -1021 under
 * HTTP 400, Bybit 10002 under HTTP 200), which also makes ccxt measure its time difference
 * again so signed requests are accepted while the halt stands. Never awaited by the asker.
 */
import type { Exchange } from 'ccxt';
import { findProfile } from '../exchanges/registry.js';
import type { OnRestResponse } from './request-gate.js';

export interface ExchangeClock {
  /** The skew beyond half the recvWindow, one line naming the fix, or null; measures when one is due. */
  skew(): string | null;
}

export interface ExchangeClockOptions {
  /** The local wall clock (epoch ms): the clock whose skew is judged. */
  now(): number;
  /** Monotonic ms: when the next measurement is due. */
  monotonic(): number;
  recvWindowMs: number;
  /** Default 30 s. */
  periodMs?: number;
  /** Default 1 s. */
  skewedPeriodMs?: number;
}

/** Hooks `exchange`'s answers (once per client) to see -1021 refusals, and judges the skew. */
export function watchExchangeClock(exchange: Exchange, options: ExchangeClockOptions): ExchangeClock {
  const periodMs = options.periodMs ?? 30_000;
  const skewedPeriodMs = options.skewedPeriodMs ?? 1_000;
  const limitMs = options.recvWindowMs / 2;
  /** The exchange's clock minus the local one, ms, as last measured. */
  let skewMs = 0;
  let measuredAt = Number.NEGATIVE_INFINITY;
  let refused = false;
  let measuring: Promise<void> | null = null;

  const profile = findProfile(String((exchange as { id?: unknown }).id));
  // The profile reads every answer, whatever its status (Bybit refuses a timestamp under HTTP 200).
  const hooked = exchange as unknown as { onRestResponse: OnRestResponse };
  const onRestResponse = hooked.onRestResponse.bind(exchange);
  hooked.onRestResponse = (status, statusText, url, method, headers, body, ...rest) => {
    if (typeof body === 'string' && profile?.readAnswer(status, headers, body)?.kind === 'clock') refused = true;
    return onRestResponse(status, statusText, url, method, headers, body, ...rest);
  };

  const measure = async () => {
    if (refused) {
      refused = false;
      await exchange.loadTimeDifference(); // ccxt signs with the exchange's time again
    }
    const sent = options.now();
    const server = await exchange.fetchTime();
    const received = options.now();
    // The server's time against the local clock at the request's midpoint (half the round trip each way).
    if (typeof server === 'number' && Number.isFinite(server)) skewMs = server - (sent + received) / 2;
  };

  return {
    skew() {
      const skewed = Math.abs(skewMs) > limitMs;
      const due = refused || options.monotonic() - measuredAt >= (skewed ? skewedPeriodMs : periodMs);
      if (measuring === null && due)
        measuring = measure()
          .catch(() => undefined) // unmeasured: the last measurement stands (reachability judges silence)
          .finally(() => {
            measuredAt = options.monotonic();
            measuring = null;
          });
      return skewed ? skewLine(skewMs, options.recvWindowMs) : null;
    },
  };
}

function skewLine(skewMs: number, recvWindowMs: number): string {
  const seconds = (Math.abs(skewMs) / 1000).toFixed(1);
  const way = skewMs > 0 ? 'behind' : 'ahead of';
  return (
    `the local clock is ${seconds} s ${way} the exchange's (more than ${recvWindowMs / 2000} s, half the ` +
    `${recvWindowMs / 1000} s recvWindow): synchronise it with NTP (e.g. \`timedatectl set-ntp true\`, chrony or ntpd)`
  );
}
