/** orphanedPositions: what no configured strategy closes, and why; describeOrphans: the operator's line. */
import { describe, expect, it } from 'vitest';
import { describeOrphans, orphanedPositions } from '../../src/domain/orphaned-positions.js';

const context = {
  listed: new Set(['BTCUSDT', 'ETHUSDT']),
  agents: new Set(['momentum_ma_crossover']),
  owners: {
    ETHUSDT: { agent: 'funding_rate_contrarian' },
    BTCUSDT: { agent: null },
  },
};

describe('orphanedPositions', () => {
  it('a symbol not in SYMBOLS, or a known owner not in STRATEGIES; an unknown owner and a flat position are not', () => {
    const positions = [
      { symbol: 'SOLUSDT', qty: -2 },
      { symbol: 'ETHUSDT', qty: 0.5 },
      { symbol: 'BTCUSDT', qty: 0.01 },
      { symbol: 'XRPUSDT', qty: 0 },
    ];
    expect(orphanedPositions(positions, context)).toEqual([
      { symbol: 'SOLUSDT', qty: -2, why: 'symbol_not_listed' },
      { symbol: 'ETHUSDT', qty: 0.5, why: 'strategy_removed', agent: 'funding_rate_contrarian' },
    ]);
  });

  it('describes them with the one call that closes them', () => {
    const line = describeOrphans([
      { symbol: 'SOLUSDT', qty: -2, why: 'symbol_not_listed' },
      { symbol: 'ETHUSDT', qty: 0.5, why: 'strategy_removed', agent: 'funding_rate_contrarian' },
    ]);
    expect(line).toContain(
      'SOLUSDT -2 (not in SYMBOLS), ETHUSDT 0.5 (its strategy funding_rate_contrarian is not in STRATEGIES)',
    );
    expect(line).toContain('POST /control/flatten {"symbols":["SOLUSDT","ETHUSDT"]}');
  });
});
