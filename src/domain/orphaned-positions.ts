/**
 * Orphaned positions: held, but no configured strategy will ever close them, because SYMBOLS no
 * longer lists their symbol or STRATEGIES no longer runs the agent that opened them. They are not a
 * fault (the account is what it is), but nobody watches them: the trading process warns at start,
 * /health is degraded naming them, and the operator closes them with a flatten of their symbols
 * (deleverage and flatten accept any held symbol, held-closes.ts).
 */
import type { Position } from './portfolio.js';

export type OrphanReason = 'symbol_not_listed' | 'strategy_removed';

export interface OrphanedPosition {
  symbol: string;
  /** Signed. */
  qty: number;
  why: OrphanReason;
  /** The agent that opened it, when known (strategy_removed). */
  agent?: string;
}

export interface OrphanContext {
  /** SYMBOLS now. */
  listed: ReadonlySet<string>;
  /** STRATEGIES' agents now. */
  agents: ReadonlySet<string>;
  /** Who opened each position, where known (the protection state's memory); null: not known. */
  owners: Readonly<Record<string, { agent: string | null }>>;
}

export function orphanedPositions(
  positions: readonly Pick<Position, 'symbol' | 'qty'>[],
  context: OrphanContext,
): OrphanedPosition[] {
  const orphans: OrphanedPosition[] = [];
  for (const { symbol, qty } of positions) {
    if (qty === 0) continue;
    if (!context.listed.has(symbol)) {
      orphans.push({ symbol, qty, why: 'symbol_not_listed' });
      continue;
    }
    // Only a known owner that no longer runs: an unknown owner (after a restart) may be any agent.
    const agent = context.owners[symbol]?.agent ?? null;
    if (agent !== null && !context.agents.has(agent)) orphans.push({ symbol, qty, why: 'strategy_removed', agent });
  }
  return orphans;
}

/** One line for an operator: what is orphaned and how to close it. */
export function describeOrphans(orphans: readonly OrphanedPosition[]): string {
  const what = orphans
    .map((o) =>
      o.why === 'symbol_not_listed'
        ? `${o.symbol} ${o.qty} (not in SYMBOLS)`
        : `${o.symbol} ${o.qty} (its strategy ${o.agent} is not in STRATEGIES)`,
    )
    .join(', ');
  const symbols = JSON.stringify(orphans.map((o) => o.symbol));
  return (
    `${orphans.length} orphaned position(s) that no configured strategy closes: ${what}; ` +
    `close them with POST /control/flatten {"symbols":${symbols}}`
  );
}
