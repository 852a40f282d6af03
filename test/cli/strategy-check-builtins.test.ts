/**
 * Every built-in strategy passes `tcs strategy check` on the sample data (issue 34 item 2): no
 * look-ahead, no recursive bias, the same answers twice. A built-in added to the registry is checked
 * here without a change to this file. Each must have signalled in the full run, or "no bias" would
 * say nothing: funding_rate_contrarian is given a threshold the sample's funding rates cross.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_STRATEGY_NAMES } from '../../src/strategies/registry.js';
import { exitWithin, startTcs } from '../support/processes.js';

const sample = fileURLToPath(new URL('../../data/sample', import.meta.url));

describe('tcs strategy check on the built-ins', () => {
  it('finds no bias in any of them; exit 0', async () => {
    const proc = startTcs(
      ['strategy', 'check', BUILTIN_STRATEGY_NAMES.join(','), '--data', sample, '--samples', '6', '--json'],
      {
        STRATEGY_PARAMS: JSON.stringify({
          funding_rate_contrarian: { threshold: 0.00005, fullConfidenceRate: 0.0005 },
        }),
      },
    );
    const { code } = await exitWithin(proc, 60_000);
    expect(proc.stderr()).toBe('');
    const report = JSON.parse(proc.stdout()) as {
      bias: boolean;
      strategies: {
        name: string;
        signals: number;
        findings: { check: string; verdict: string; readings?: number }[];
      }[];
    };
    expect(report.strategies.map((s) => s.name)).toEqual([...BUILTIN_STRATEGY_NAMES]);
    const declaring: string[] = [];
    for (const s of report.strategies) {
      const indicators = s.findings.find((f) => f.check === 'indicators')!;
      // Those that declare indicators through trackIndicators have their values compared as well.
      if (indicators.verdict !== 'n/a') {
        declaring.push(s.name);
        expect(indicators.readings, s.name).toBeGreaterThan(100);
      }
      expect({ name: s.name, verdicts: s.findings.map((f) => `${f.check} ${f.verdict}`) }).toEqual({
        name: s.name,
        verdicts: [
          'determinism ok',
          'look-ahead ok',
          'recursion ok',
          `indicators ${indicators.verdict === 'n/a' ? 'n/a' : 'ok'}`,
        ],
      });
      expect(s.signals, s.name).toBeGreaterThan(100);
    }
    expect(declaring).toEqual(expect.arrayContaining(['bollinger_mean_reversion', 'donchian_atr_breakout']));
    expect(report.bias).toBe(false);
    expect(code).toBe(0);
  });
});
