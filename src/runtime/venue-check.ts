/**
 * `tcs venue check`: connects to the configured exchange with the configured keys and prints what
 * the live venue would start from — balances, positions and open orders (the system's and anyone
 * else's), and the fees and funding of the last 7 days from the income history (which the live
 * account's figures are read from: a key that cannot read it is said here), and the account
 * settings a live start checks (position and asset mode, each symbol's leverage and margin type, the
 * clock's skew: ../adapters/live-venue/account-check.ts) with what a start would set — changing
 * nothing: only reads are sent. Exit 0 when the exchange answered, 1 when it did not (unreachable,
 * keys refused: the reason, never the key), 2 on a configuration error or an account a live start
 * would refuse (the fix named).
 */
import { parseArgs } from 'node:util';
import type { Exchange } from 'ccxt';
import { checkAccount } from '../adapters/live-venue/account-check.js';
import type { AccountCheck } from '../adapters/live-venue/account-check.js';
import { tradedSymbols } from '../adapters/live-venue/ccxt-mapping.js';
import type { SymbolMap } from '../adapters/live-venue/ccxt-mapping.js';
import { IncomeTally } from '../adapters/live-venue/income-tally.js';
import type { IncomeLine } from '../adapters/live-venue/income-tally.js';
import { LiveVenue } from '../adapters/live-venue/live-venue.js';
import { openLiveExchange } from '../adapters/exchanges/open-exchange.js';
import { gateRequests } from '../adapters/live-venue/request-gate.js';
import { parseInstruments, DEFAULT_SYMBOLS } from '../domain/instruments.js';
import { requestBudget } from '../domain/request-budget.js';
import { ConfigError } from './config-error.js';
import { readInt, readNumber } from './config-numbers.js';
import { checkInstrumentKinds, readExchangeConfig, readExchangeCredentials } from './exchange-config.js';

export async function runVenueCheck(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  parseArgs({ args, options: {}, strict: true });
  const config = readExchangeConfig(env, 'live');
  if (!config) throw new ConfigError('EXCHANGE is not set');
  const credentials = readExchangeCredentials(env);
  const instruments = wrapInstruments(env);
  // The instruments must be what the exchange trades (spot pairs on a spot exchange), as at start.
  checkInstrumentKinds(instruments, config);
  const symbols = instruments.map((i) => i.symbol);
  // CYCLE_SECONDS as the trading process reads it (trading-config.ts): the budget depends on it.
  const cycleMs = Math.round(readNumber(env, 'CYCLE_SECONDS', 60, 0.05, 86_400) * 1000);
  // Test-only (not in .env.example), as for the trading process and `tcs data download`: the tests
  // against the local fake exchange turn ccxt's throttle down to 1 ms per unit of request weight,
  // rather than wait out Binance's weights (the income history and account settings: 1.5 s each).
  const rateLimitMs = env.TCS_TEST_EXCHANGE_RATE_LIMIT_MS?.trim()
    ? readInt(env, 'TCS_TEST_EXCHANGE_RATE_LIMIT_MS', 1, 1, 60_000)
    : undefined;
  const { exchange, errors, profile } = await openLiveExchange(config, credentials, {
    timeoutMs: config.timeoutMs,
    ...(rateLimitMs === undefined ? {} : { rateLimitMs }),
  });
  const where = `${config.exchange} ${config.testnet ? `testnet (${profile.testnetLabel})` : 'MAINNET'}${config.url ? ` via ${config.url}` : ''}`;
  try {
    await exchange.loadMarkets();
    const traded = tradedSymbols(profile.market, exchange.markets ?? {}, symbols);
    const venue = new LiveVenue({
      exchange,
      errors,
      // One-shot: a 429/418 fails the check (naming the wait) rather than sending more.
      gate: gateRequests(exchange, { monotonic: () => performance.now(), now: () => Date.now() }),
      symbols: traded,
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
    const { income } = profile;
    if (income) console.log(await incomeSummary(income(exchange), exchange, traded, profile.incomePageSize));
    const checked = await checkAccount(exchange, traded, config.account, { now: () => Date.now(), apply: false });
    console.log(accountSummary(checked));
    const budget = requestBudget({ symbols: symbols.length, cycleMs });
    console.log(
      `request weight: about ${budget.weightPerMinute} a minute for ${symbols.length} symbols at ${cycleMs / 1000} s cycles ` +
        `(${budget.budgetPerMinute.toLocaleString('en-US')} planned, an estimate: docs/operate/live-trading.md)`,
    );
    if (budget.warning) console.error(`tcs venue check: warning: ${budget.warning}`);
    if (checked.problems.length === 0) return 0;
    console.error(`tcs venue check: a live start would refuse this account: ${checked.problems.join('; ')}`);
    return 2;
  } catch (err) {
    console.error(`tcs venue check: ${where} did not answer: ${(err as Error).name}: ${oneLine(err)}`);
    return 1;
  } finally {
    await exchange.close().catch(() => {});
  }
}

/** The last 7 days' fees and funding on the traded symbols, or why the income history cannot be read. */
async function incomeSummary(
  read: (startTime: number, limit: number) => Promise<IncomeLine[]>,
  exchange: Exchange,
  traded: SymbolMap,
  pageSize: number,
  now = Date.now(),
): Promise<string> {
  const from = now - 7 * 86_400_000;
  let failure: unknown = null;
  const tally = new IncomeTally({
    fetch: read,
    symbols: new Set(traded.symbols.map((s) => exchange.market(traded.unified(s)).id as string)),
    now: () => now,
    initial: { since: from, through: from, seen: [], fundingPnl: 0, feesPaid: 0 },
    minIntervalMs: 0,
    // Not in a cycle: the whole week at once (up to 10 pages).
    pagesPerRefresh: 10,
    pageSize,
    failing: (err) => (failure = err),
  });
  await tally.refresh();
  if (failure !== null)
    return `income history: not readable (${(failure as Error).name}: ${oneLine(failure)}); the live account's fees and funding would read 0`;
  const { feesPaid, fundingPnl } = tally.totals();
  const others = [...tally.unconvertedFees()].map(
    ([asset, fee]) =>
      `\nfees paid in ${asset} over the last 7 days: ${fee} ${asset} (not converted: the live account's fees leave them out)`,
  );
  return `fees and funding over the last 7 days on the traded symbols: fees ${feesPaid} USDT, funding ${fundingPnl} USDT${others.join('')}`;
}

/** The settings a live start checks, one line per traded symbol, and what a start would set. */
function accountSummary(c: AccountCheck): string {
  const lines = [
    `account: ${c.hedgeMode ? 'hedge' : 'one-way'} position mode, ${c.multiAssets ? 'multi-assets' : 'single-asset'} mode, ` +
      `clock ${c.skewMs} ms off the exchange's`,
    ...c.symbols.map((s) => `  ${s.symbol} leverage ${s.leverage}x, ${s.marginType} margin`),
  ];
  if (c.wouldChange.length > 0) lines.push(`a live start would set: ${c.wouldChange.join(', ')}`);
  return lines.join('\n');
}

function wrapInstruments(env: NodeJS.ProcessEnv): ReturnType<typeof parseInstruments> {
  try {
    return parseInstruments(env.SYMBOLS ?? DEFAULT_SYMBOLS);
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
