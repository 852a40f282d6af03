/**
 * What differs between exchanges beyond ccxt's unified API, one row per supported exchange: adding
 * another ccxt exchange is configuration (src/runtime/exchange-config.ts SUPPORTED_EXCHANGES) plus a
 * row here. Today: the dead-man's switch and the income history, which ccxt does not unify.
 */
import type { Exchange } from 'ccxt';
import type { IncomeLine } from './income-tally.js';

export interface ExchangeCapabilities {
  /** Arms the exchange's cancel-all countdown for one symbol (its market id), or null when it has none. */
  countdown: ((exchange: Exchange) => (symbolId: string, countdownMs: number) => Promise<unknown>) | null;
  /** Reads the account's income history from `startTime`, oldest first (./income-tally.ts), or null when it has none. */
  income: ((exchange: Exchange) => (startTime: number, limit: number) => Promise<IncomeLine[]>) | null;
}

export const CAPABILITIES: Record<'binanceusdm', ExchangeCapabilities> = {
  binanceusdm: {
    // POST /fapi/v1/countdownCancelAll: per symbol; each call replaces the last, 0 disarms.
    countdown: (exchange) => (symbolId, countdownMs) =>
      (
        exchange as unknown as { fapiPrivatePostCountdownCancelAll(p: object): Promise<unknown> }
      ).fapiPrivatePostCountdownCancelAll({ symbol: symbolId, countdownTime: countdownMs }),
    // GET /fapi/v1/income (weight 30): fees, funding, realized PnL, transfers, oldest first.
    income: (exchange) => (startTime, limit) =>
      (exchange as unknown as { fapiPrivateGetIncome(p: object): Promise<IncomeLine[]> }).fapiPrivateGetIncome({
        startTime,
        limit,
      }),
  },
};
