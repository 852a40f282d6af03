/** The console's orphaned-positions row and the symbols the positions table marks, from /health. */
import { describe, expect, it } from 'vitest';
import { orphanedSymbols, positionsRow } from '../../console/lib/orphaned.js';
import type { Health } from '../../console/lib/types.js';

describe('orphaned positions in the console', () => {
  it('names each orphan, why, and the call that closes them; marks their symbols', () => {
    const positions: Health['components']['positions'] = {
      status: 'orphaned',
      orphaned: [
        { symbol: 'BTCUSDT', qty: 0.01, why: 'symbol_not_listed' },
        { symbol: 'ETHUSDT', qty: -1, why: 'strategy_removed', agent: 'old_agent' },
      ],
      resolve: 'POST /control/flatten {"symbols":["BTCUSDT","ETHUSDT"]}',
    };
    const row = positionsRow(positions);
    expect(row.status).toBe('orphaned');
    expect(row.detail).toContain('BTCUSDT 0.01 (not in SYMBOLS); ETHUSDT -1 (old_agent not in STRATEGIES)');
    expect(row.detail).toContain('POST /control/flatten');
    const health = { components: { positions } } as unknown as Health;
    expect([...orphanedSymbols(health)]).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(orphanedSymbols(null).size).toBe(0);
    expect(positionsRow({ status: 'ok', orphaned: [] }).status).toBe('ok');
  });
});
