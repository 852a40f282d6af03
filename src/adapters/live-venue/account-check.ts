/**
 * The exchange account checked before the first live order (issue 32, item 5), at the start of live
 * execution and by `tcs venue check`. What it reads, by the exchange profile's `account` calls
 * (src/adapters/exchanges/<id>.ts; ccxt's raw endpoints where it has no unified call):
 *  - the clock skew against the exchange's server time: beyond half the recvWindow a signed request
 *    can be refused and every timestamp the system puts on a cycle, a candle or a risk token is that
 *    far off; ccxt signs with the server's time (its `adjustForTimeDifference`), but only as measured
 *    once, at loadMarkets;
 *  - the position mode: hedge mode is not supported — every order would need a position side, and
 *    the system holds one net position per symbol (docs/operate/live-trading.md says why);
 *  - multi-assets mode: the NAV is counted in USDT alone, and multi-assets margin lets other assets'
 *    prices liquidate the account;
 *  - each traded symbol's leverage and margin type, against EXCHANGE_LEVERAGE / EXCHANGE_MARGIN_TYPE
 *    when set: set on the exchange (ccxt setLeverage / setMarginMode) unless setting is off, in
 *    which case a difference is a problem; a margin type change on a symbol holding a position is
 *    always a problem (exchanges refuse it: Binance with -4048, and Bybit, OKX and Bitget alike).
 * Every problem names what to change. Nothing is set when there is any problem (a refused start
 * leaves the account as it found it), nor when `apply` is false (tcs venue check changes nothing).
 */
import type { Exchange } from 'ccxt';
import { toPosition } from './ccxt-mapping.js';
import type { SymbolMap } from './ccxt-mapping.js';
import { profileOf } from '../exchanges/registry.js';

export type MarginType = 'isolated' | 'cross';

/** What the configuration asks of the account (src/runtime/exchange-config.ts). */
export interface AccountWanted {
  /** EXCHANGE_LEVERAGE, or null: whatever the account has. */
  leverage: number | null;
  /** EXCHANGE_MARGIN_TYPE, or null: whatever the account has. */
  marginType: MarginType | null;
  /** EXCHANGE_SET_LEVERAGE: set what differs (true) or refuse it (false). */
  set: boolean;
}

export interface SymbolAccount {
  /** Ours (the exchange's market id). */
  symbol: string;
  leverage: number;
  marginType: MarginType;
}

export interface AccountCheck {
  hedgeMode: boolean;
  multiAssets: boolean;
  /** The exchange's clock minus the local one, ms (positive: the local clock is behind). */
  skewMs: number;
  /** Each traded symbol's settings as found, before anything was set. */
  symbols: SymbolAccount[];
  /** What was set on the exchange, e.g. "BTCUSDT leverage 20x → 5x". */
  changed: string[];
  /** With `apply: false`: what a start would set. */
  wouldChange: string[];
  /** Why the account cannot be traded as it is, each naming the fix; none: it can. */
  problems: string[];
}

export interface AccountCheckOptions {
  /** The local clock the system runs on (ms since the epoch). */
  now: () => number;
  /** False: read only, change nothing (tcs venue check). */
  apply: boolean;
}

export async function checkAccount(
  exchange: Exchange,
  traded: SymbolMap,
  wanted: AccountWanted,
  options: AccountCheckOptions,
): Promise<AccountCheck> {
  const profile = profileOf(exchange);
  const api = profile.account;
  const problems: string[] = [];
  const skewMs = await measureSkew(() => api.serverTime(exchange), options.now);
  if (Math.abs(skewMs) > profile.recvWindowMs / 2) problems.push(skewProblem(skewMs, profile.recvWindowMs));
  const hedgeMode = await api.hedgeMode(exchange);
  if (hedgeMode) problems.push(`the account is in hedge mode: switch to one-way mode (${api.hedgeModeFix})`);
  const multiAssets = await api.multiAssets(exchange);
  if (multiAssets)
    problems.push(`the account is in multi-assets mode: switch to single-asset mode (${api.multiAssetsFix})`);
  const symbols: SymbolAccount[] = [];
  // Asked by the exchange's market id (OKX's BTC-USDT-SWAP for our BTCUSDT: ./ccxt-mapping.ts perpetualSymbols).
  for (const symbol of traded.symbols)
    symbols.push({
      symbol,
      ...(await api.symbolSettings(exchange, marketIdOf(exchange, traded.unified(symbol), symbol))),
    });
  const wantedChanges = differences(symbols, wanted);
  // A margin type change on a symbol holding a position is refused by the exchange (Binance: -4048):
  // said now, as a problem, rather than "would set" by tcs venue check or a failed request half-way
  // through a start.
  const held = await holding(exchange, traded, wantedChanges);
  const blocked = wantedChanges.filter((c) => c.what === 'margin type' && held.has(c.symbol));
  problems.push(...blocked.map(heldRefusal));
  const changes = wantedChanges.filter((c) => !blocked.includes(c));
  const changed: string[] = [];
  const wouldChange: string[] = [];
  if (!wanted.set) problems.push(...changes.map(refusal));
  else if (!options.apply || problems.length > 0) wouldChange.push(...changes.map(told));
  else
    for (const change of changes) {
      const failed = await make(exchange, traded, change);
      if (failed === null) changed.push(told(change));
      else problems.push(failed);
    }
  return { hedgeMode, multiAssets, skewMs, symbols, changed, wouldChange, problems };
}

type Change =
  | { symbol: string; what: 'leverage'; from: number; to: number }
  | { symbol: string; what: 'margin type'; from: MarginType; to: MarginType };

function differences(symbols: SymbolAccount[], wanted: AccountWanted): Change[] {
  const changes: Change[] = [];
  for (const s of symbols) {
    if (wanted.leverage !== null && s.leverage !== wanted.leverage)
      changes.push({ symbol: s.symbol, what: 'leverage', from: s.leverage, to: wanted.leverage });
    if (wanted.marginType !== null && s.marginType !== wanted.marginType)
      changes.push({ symbol: s.symbol, what: 'margin type', from: s.marginType, to: wanted.marginType });
  }
  return changes;
}

const shown = (c: Change, v: number | MarginType) => (c.what === 'leverage' ? `${v}x` : v);
const variable = (c: Change) => (c.what === 'leverage' ? 'EXCHANGE_LEVERAGE' : 'EXCHANGE_MARGIN_TYPE');
const told = (c: Change) => `${c.symbol} ${c.what} ${shown(c, c.from)} → ${shown(c, c.to)}`;

function refusal(c: Change): string {
  return (
    `${c.symbol} ${c.what} is ${shown(c, c.from)} on the exchange, ${variable(c)}=${c.to}: ` +
    `set it to ${shown(c, c.to)} on the exchange, or ${variable(c)}=${c.from}, ` +
    'or remove EXCHANGE_SET_LEVERAGE=false to let the start set it'
  );
}

/** The symbols with a margin type change wanted that hold a position (read only when there is such a change). */
async function holding(exchange: Exchange, traded: SymbolMap, changes: Change[]): Promise<Set<string>> {
  const symbols = changes.filter((c) => c.what === 'margin type').map((c) => c.symbol);
  if (symbols.length === 0) return new Set();
  const positions = await exchange.fetchPositions(symbols.map((s) => traded.unified(s)));
  const held = new Set<string>();
  for (const p of positions) {
    const symbol = p.symbol ? traded.ours(p.symbol) : null;
    if (symbol !== null && toPosition(p, symbol, traded.contractSize(symbol)) !== null) held.add(symbol);
  }
  return held;
}

function heldRefusal(c: Change): string {
  return (
    `${c.symbol} ${c.what} cannot be changed ${shown(c, c.from)} → ${shown(c, c.to)} while the symbol holds a position ` +
    `(the exchange refuses that): close the position first, or set ${variable(c)}=${c.from}`
  );
}

/** Sets one difference on the exchange; null when done, else the problem naming the way out. */
async function make(exchange: Exchange, traded: SymbolMap, c: Change): Promise<string | null> {
  try {
    if (c.what === 'leverage') await exchange.setLeverage(c.to, traded.unified(c.symbol));
    else await exchange.setMarginMode(c.to, traded.unified(c.symbol));
    return null;
  } catch (err) {
    const said = String((err as Error).message)
      .split('\n')[0]!
      .slice(0, 200);
    // An exchange may refuse a margin type change while the symbol holds a position (Binance: -4048).
    const fix =
      c.what === 'margin type'
        ? `close the position first, or set ${variable(c)}=${c.from}`
        : `set it on the exchange by hand, or ${variable(c)}=${c.from}`;
    return `${c.symbol} ${c.what} could not be set to ${shown(c, c.to)} (the exchange said: ${said}): ${fix}`;
  }
}

/** The server's time against the local clock at the request's midpoint (half the round trip each way). */
async function measureSkew(serverTime: () => Promise<number>, now: () => number): Promise<number> {
  const sent = now();
  const server = await serverTime();
  const received = now();
  return Math.round(server - (sent + received) / 2);
}

function skewProblem(skewMs: number, recvWindowMs: number): string {
  const seconds = (Math.abs(skewMs) / 1000).toFixed(1);
  const way = skewMs > 0 ? 'behind' : 'ahead of';
  return (
    `the local clock is ${seconds} s ${way} the exchange's (more than ${recvWindowMs / 2000} s, ` +
    `half the ${recvWindowMs / 1000} s recvWindow): synchronise it with NTP ` +
    '(e.g. `timedatectl set-ntp true`, chrony or ntpd) and start again'
  );
}

/** The exchange's id of a loaded market; our symbol (Binance's and Bybit's ids) when ccxt has not loaded it. */
function marketIdOf(exchange: Exchange, unified: string, ours: string): string {
  const markets = (exchange as { markets?: Record<string, { id?: string }> }).markets;
  return markets?.[unified]?.id ?? ours;
}
