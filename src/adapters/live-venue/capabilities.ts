/**
 * The dead-man's switch and the income history of each supported exchange, as the live venue and the
 * income tally take them: a view of the exchange profiles (src/adapters/exchanges/), which hold the
 * facts. Adding an exchange adds nothing here.
 */
import type { Exchange } from 'ccxt';
import { profiles } from '../exchanges/registry.js';
import type { ExchangeId } from '../exchanges/registry.js';
import type { IncomeLine } from './income-tally.js';

interface ExchangeCapabilities {
  /** Arms the exchange's cancel-all countdown for one symbol (its market id), or null when it has none. */
  countdown: ((exchange: Exchange) => (symbolId: string, countdownMs: number) => Promise<unknown>) | null;
  /** Reads the account's income history from `startTime`, oldest first (./income-tally.ts), or null when it has none. */
  income: ((exchange: Exchange) => (startTime: number, limit: number) => Promise<IncomeLine[]>) | null;
}

export const CAPABILITIES = Object.fromEntries(
  profiles().map((p) => [p.id, { countdown: p.deadMansSwitch, income: p.income }]),
) as Record<ExchangeId, ExchangeCapabilities>;
