/**
 * `tcs venue check`: connects to the configured exchange with the configured keys and prints what
 * the live venue would start from — balances, positions and open orders (the system's and anyone
 * else's) — changing nothing: only reads are sent. Exit 0 when the exchange answered, 1 when it did
 * not (unreachable, keys refused: the reason, never the key), 2 on a configuration error.
 */
import { parseArgs } from 'node:util';
import { perpetualSymbols } from '../adapters/live-venue/ccxt-mapping.js';
import { LiveVenue } from '../adapters/live-venue/live-venue.js';
import { openLiveExchange } from '../adapters/live-venue/open-exchange.js';
import { parseInstruments, DEFAULT_SYMBOLS } from '../domain/instruments.js';
import { ConfigError } from './config-error.js';
import { readExchangeConfig, readExchangeCredentials } from './exchange-config.js';

export async function runVenueCheck(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  parseArgs({ args, options: {}, strict: true });
  const config = readExchangeConfig(env, 'live');
  if (!config) throw new ConfigError('EXCHANGE is not set');
  const credentials = readExchangeCredentials(env);
  const symbols = wrapSymbols(env);
  const { exchange, errors } = await openLiveExchange(config, credentials, { timeoutMs: config.timeoutMs });
  const where = `${config.exchange} ${config.testnet ? 'testnet (demo trading)' : 'MAINNET'}${config.url ? ` via ${config.url}` : ''}`;
  try {
    await exchange.loadMarkets();
    const venue = new LiveVenue({
      exchange,
      errors,
      symbols: perpetualSymbols(exchange.markets ?? {}, symbols),
      now: () => Date.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    const account = await venue.account();
    console.log(`exchange: ${where}`);
    console.log(`balance: NAV ${account.nav} USDT (cash ${account.cash}, unrealized ${account.unrealizedPnl})`);
    console.log(`positions: ${account.positions.length === 0 ? 'none' : ''}`);
    for (const p of account.positions)
      console.log(`  ${p.symbol} ${p.qty} @ ${p.entryPrice} (mark ${p.markPrice}, unrealized ${p.unrealizedPnl})`);
    console.log(`open orders: ${account.openOrders.length === 0 ? 'none' : ''}`);
    for (const o of account.openOrders)
      console.log(
        `  ${o.clientOrderId} ${o.symbol} ${o.side} ${o.qty} ${o.type}${o.limitPrice !== null ? ` @ ${o.limitPrice}` : ''}${o.reduceOnly ? ' reduce-only' : ''} (filled ${o.filledQty})`,
      );
    return 0;
  } catch (err) {
    console.error(`tcs venue check: ${where} did not answer: ${(err as Error).name}: ${oneLine(err)}`);
    return 1;
  } finally {
    await exchange.close().catch(() => {});
  }
}

function wrapSymbols(env: NodeJS.ProcessEnv): string[] {
  try {
    return parseInstruments(env.SYMBOLS ?? DEFAULT_SYMBOLS).map((i) => i.symbol);
  } catch (err) {
    throw new ConfigError(`SYMBOLS: ${(err as Error).message}`);
  }
}

/** The error's first line, cut short: ccxt's messages carry the exchange's answer, never our key. */
function oneLine(err: unknown): string {
  return String((err as Error).message ?? err)
    .split('\n')[0]!
    .slice(0, 300);
}
