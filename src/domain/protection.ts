/**
 * Protective exits (issue 20, item 4): STOP_LOSS, TAKE_PROFIT and TRAILING_STOP, each a fraction of
 * the position's entry price, judged every cycle against the bar that just closed (its high and low;
 * the last price when there are no candles), and COOLDOWN_AFTER_STOP, the cycles an agent whose
 * position was stopped may not re-enter that symbol. Pure rules and plain-data state: the allocator
 * actor keeps the state, the trading process stores it (PROTECTION_KEY) so the trailing stop's best
 * price survives a restart.
 *
 * Rules, for a long entered at E with best price B (the highest high since entry, E at first):
 * stop-loss at E·(1 − stop_loss), crossed when the bar's low reaches it; trailing stop at
 * B − trailing_stop·E (a distance in entry-price terms, so it never tightens as the price rises);
 * take-profit at E·(1 + take_profit), crossed when the bar's high reaches it. A short mirrors them.
 * Which came first inside a bar is unknown, so a bar that crosses an adverse trigger and the
 * take-profit counts as the adverse one (the pessimistic reading, as freqtrade's backtests do), and
 * of two adverse triggers the one nearer the price (crossed first on the way) is the reason. The best
 * price is taken from the bars before the one judged: a bar whose high set a new best and whose low
 * then fell back is judged against the best before it, since its high may have come after its low.
 */
import type { MarketSnapshot, MarketView } from './market.js';
import type { Position } from './portfolio.js';

export type ExitReason = 'stop_loss' | 'take_profit' | 'trailing_stop';

/** One strategy's (or the global) rule. Fractions of the entry price; null = off. */
export interface ProtectionRule {
  stopLoss: number | null;
  takeProfit: number | null;
  trailingStop: number | null;
  /** Cycles after a stop-loss or trailing stop during which the agent does not re-enter the symbol. */
  cooldownAfterStop: number;
}

export interface ProtectionSettings {
  /** STOP_LOSS, TAKE_PROFIT, TRAILING_STOP, COOLDOWN_AFTER_STOP. */
  global: ProtectionRule;
  /** PROTECTION_PARAMS: per strategy name, the fields that differ from the global rule. */
  byStrategy: Readonly<Record<string, Partial<ProtectionRule>>>;
}

export const NO_PROTECTION: ProtectionSettings = {
  global: { stopLoss: null, takeProfit: null, trailingStop: null, cooldownAfterStop: 0 },
  byStrategy: {},
};

/** A position being protected: its side, the best price since entry, and whose signal opened it. */
export interface TrackedPosition {
  side: 1 | -1;
  best: number;
  agent: string | null;
}

/** What the trailing stops and cooldowns need to survive a restart (plain JSON). */
export interface ProtectionState {
  positions: Record<string, TrackedPosition>;
  /** agent (or ANY_AGENT) → symbol → the last cycle in which its directional signals are skipped. */
  cooldowns: Record<string, Record<string, number>>;
}

export const EMPTY_PROTECTION_STATE: ProtectionState = Object.freeze({
  positions: Object.freeze({}) as Record<string, TrackedPosition>,
  cooldowns: Object.freeze({}) as Record<string, Record<string, number>>,
});

/** The cooldown key of a stop whose owner is unknown (after a restart): every agent waits. */
export const ANY_AGENT = '*';

export interface ProtectiveExit {
  symbol: string;
  /** The agent whose signal set the position; null when no longer known. */
  agent: string | null;
  reason: ExitReason;
  /** The signed position closed. */
  qty: number;
  entryPrice: number;
  bestPrice: number;
  /** The price level that was crossed. */
  triggerPrice: number;
}

/** The rule for positions `agent` opened: its PROTECTION_PARAMS entry over the global rule. */
export function ruleFor(settings: ProtectionSettings, agent: string | null): ProtectionRule {
  const own = agent === null ? undefined : settings.byStrategy[agent];
  return own ? { ...settings.global, ...own } : settings.global;
}

const active = (r: Partial<ProtectionRule>) => r.stopLoss != null || r.takeProfit != null || r.trailingStop != null;

/** True when any strategy has any exit configured (otherwise nothing is tracked or stored). */
export function protectionEnabled(settings: ProtectionSettings): boolean {
  return active(settings.global) || Object.values(settings.byStrategy).some(active);
}

/**
 * The stop-loss and trailing-stop levels of a position (rules in the module comment), as
 * [reason, level] in order of preference when two sit at the same level.
 */
export function adverseLevels(
  position: { side: 1 | -1; entry: number },
  best: number,
  rule: ProtectionRule,
): [Exclude<ExitReason, 'take_profit'>, number][] {
  const { side, entry } = position;
  const adverse: [Exclude<ExitReason, 'take_profit'>, number][] = [];
  if (rule.stopLoss != null) adverse.push(['stop_loss', entry * (1 - side * rule.stopLoss)]);
  if (rule.trailingStop != null) adverse.push(['trailing_stop', best - side * rule.trailingStop * entry]);
  return adverse;
}

/** The exit a bar triggers for a position, or null (rules in the module comment). */
export function exitTrigger(
  position: { side: 1 | -1; entry: number },
  best: number,
  bar: { high: number; low: number },
  rule: ProtectionRule,
): { reason: ExitReason; triggerPrice: number } | null {
  const { side, entry } = position;
  const adverse = adverseLevels(position, best, rule);
  // The adverse level crossed first on the way against the position: the highest for a long.
  let hit: [ExitReason, number] | null = null;
  for (const a of adverse) {
    const crossed = side > 0 ? bar.low <= a[1] : bar.high >= a[1];
    if (crossed && (hit === null || side * a[1] > side * hit[1])) hit = a;
  }
  if (hit) return { reason: hit[0], triggerPrice: hit[1] };
  if (rule.takeProfit != null) {
    const level = entry * (1 + side * rule.takeProfit);
    if (side > 0 ? bar.high >= level : bar.low <= level) return { reason: 'take_profit', triggerPrice: level };
  }
  return null;
}

/** The range of the bar that just closed; the last price alone when the feed has no candles. */
function lastRange(snapshot: MarketSnapshot): { high: number; low: number } {
  const n = snapshot.bars.length;
  if (n === 0) return { high: snapshot.last, low: snapshot.last };
  return { high: snapshot.bars.high[n - 1]!, low: snapshot.bars.low[n - 1]! };
}

/**
 * One cycle's check: every held position is judged against its symbol's last bar and tracked (best
 * price, owner); symbols no longer held are forgotten, so a new entry starts afresh. `owners` is the
 * allocator's memory of which agent set each position; the stored owner is kept when it is empty
 * (after a restart).
 */
export function protect(
  state: ProtectionState,
  positions: readonly Position[],
  market: MarketView,
  owners: ReadonlyMap<string, string>,
  settings: ProtectionSettings,
): { state: ProtectionState; exits: ProtectiveExit[] } {
  if (!protectionEnabled(settings)) return { state, exits: [] };
  const tracked: Record<string, TrackedPosition> = {};
  const exits: ProtectiveExit[] = [];
  for (const p of positions) {
    const snapshot = market.get(p.symbol);
    if (p.qty === 0 || !snapshot || !(p.entryPrice > 0)) continue;
    const side = p.qty > 0 ? 1 : -1;
    const before = state.positions[p.symbol];
    const same = before !== undefined && before.side === side;
    const agent = owners.get(p.symbol) ?? (same ? before.agent : null);
    const best = same ? before.best : p.entryPrice;
    const bar = lastRange(snapshot);
    const hit = exitTrigger({ side, entry: p.entryPrice }, best, bar, ruleFor(settings, agent));
    if (hit) exits.push({ symbol: p.symbol, agent, qty: p.qty, entryPrice: p.entryPrice, bestPrice: best, ...hit });
    tracked[p.symbol] = { side, best: side > 0 ? Math.max(best, bar.high) : Math.min(best, bar.low), agent };
  }
  return { state: { positions: tracked, cooldowns: state.cooldowns }, exits };
}

/** Starts the cooldown of every stop among `exits` (take-profits start none); drops expired ones. */
export function startCooldowns(
  state: ProtectionState,
  exits: readonly Pick<ProtectiveExit, 'symbol' | 'agent' | 'reason'>[],
  settings: ProtectionSettings,
  cycle: number,
): ProtectionState {
  const cooldowns: Record<string, Record<string, number>> = {};
  for (const [agent, symbols] of Object.entries(state.cooldowns))
    for (const [symbol, until] of Object.entries(symbols))
      if (until >= cycle) (cooldowns[agent] ??= {})[symbol] = until;
  for (const e of exits) {
    const cycles = ruleFor(settings, e.agent).cooldownAfterStop;
    if (e.reason === 'take_profit' || cycles <= 0) continue;
    (cooldowns[e.agent ?? ANY_AGENT] ??= {})[e.symbol] = cycle + cycles;
  }
  const unchanged = JSON.stringify(cooldowns) === JSON.stringify(state.cooldowns);
  return unchanged ? state : { positions: state.positions, cooldowns };
}

/**
 * The stops the exchange itself closed a position with (src/domain/exchange-stops.ts): each counts
 * as a stop of the agent that held the position (the allocator's owner, else the tracked one, else
 * every agent), so its cooldown starts as an in-process stop's does. An exchange stop is only ever a
 * stop-loss or a trailing stop; which of the two does not change the cooldown.
 */
export function exchangeStopExits(
  state: ProtectionState,
  symbols: readonly string[],
  owners: ReadonlyMap<string, string>,
): Pick<ProtectiveExit, 'symbol' | 'agent' | 'reason'>[] {
  return [...new Set(symbols)].map((symbol) => ({
    symbol,
    agent: owners.get(symbol) ?? state.positions[symbol]?.agent ?? null,
    reason: 'stop_loss',
  }));
}

/** The last cycle of `agent`'s cooldown on `symbol` when `cycle` is inside it, else null. */
export function coolingDown(state: ProtectionState, agent: string, symbol: string, cycle: number): number | null {
  const until = Math.max(state.cooldowns[agent]?.[symbol] ?? -1, state.cooldowns[ANY_AGENT]?.[symbol] ?? -1);
  return until >= cycle ? until : null;
}

const FIELDS = {
  stop_loss: 'stopLoss',
  take_profit: 'takeProfit',
  trailing_stop: 'trailingStop',
  cooldown_after_stop: 'cooldownAfterStop',
} as const;

/**
 * One PROTECTION_PARAMS entry ({stop_loss, take_profit, trailing_stop, cooldown_after_stop}, any
 * subset; null turns a global exit off for that strategy). Throws a RangeError naming `where` and the
 * field for anything else.
 */
export function parseProtectionRule(raw: Record<string, unknown>, where: string): Partial<ProtectionRule> {
  const rule: Partial<ProtectionRule> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!Object.hasOwn(FIELDS, key))
      throw new RangeError(`${where}: unknown field "${key}" (known: ${Object.keys(FIELDS).join(', ')})`);
    const field = FIELDS[key as keyof typeof FIELDS];
    if (field === 'cooldownAfterStop') {
      if (!(typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 1_000_000))
        throw new RangeError(`${where}.${key} must be a whole number of cycles ≥ 0, got ${JSON.stringify(value)}`);
      rule.cooldownAfterStop = value;
    } else {
      if (value !== null && !(typeof value === 'number' && value > 0 && value < 1))
        throw new RangeError(`${where}.${key} must be a fraction in (0, 1) or null, got ${JSON.stringify(value)}`);
      rule[field] = value;
    }
  }
  return rule;
}
