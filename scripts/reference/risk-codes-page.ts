/**
 * docs/reference/risk-codes.md: why an order or a signal did not go through, from the catalogs typed
 * by each code's union: the risk guards, the order manager's refusals, the arbiter and the allocator.
 */
import { ALLOCATION_SKIP_CATALOG } from '../../src/domain/allocation-skips.js';
import { ARBITRATION_REASON_CATALOG } from '../../src/domain/arbitration-reasons.js';
import { HALT_REASON_CATALOG } from '../../src/domain/halt-reasons.js';
import { ORDER_REFUSAL_CATALOG } from '../../src/domain/order-refusals.js';
import { GUARD_CODE_CATALOG } from '../../src/domain/risk/guard-codes.js';
import type { GuardCodeEntry } from '../../src/domain/risk/guard-codes.js';
import { code, header, table } from './markdown.js';

export interface RiskCodeCatalogs {
  guards: Readonly<Record<string, GuardCodeEntry>>;
  refusals: Readonly<Record<string, string>>;
  arbitration: Readonly<Record<string, string>>;
  allocation: Readonly<Record<string, string>>;
  halts: Readonly<Record<string, string>>;
}

export const RISK_CODE_CATALOGS: RiskCodeCatalogs = {
  guards: GUARD_CODE_CATALOG,
  refusals: ORDER_REFUSAL_CATALOG,
  arbitration: ARBITRATION_REASON_CATALOG,
  allocation: ALLOCATION_SKIP_CATALOG,
  halts: HALT_REASON_CATALOG,
};

const simple = (catalog: Readonly<Record<string, string>>): string[] =>
  table(
    ['code', 'meaning'],
    Object.entries(catalog).map(([name, meaning]) => [code(name), meaning]),
  );

export function riskCodesPage(catalogs: RiskCodeCatalogs = RISK_CODE_CATALOGS): string {
  return [
    ...header(
      'Risk and refusal codes',
      'src/domain/risk/guard-codes.ts, src/domain/order-refusals.ts, src/domain/arbitration-reasons.ts, src/domain/allocation-skips.ts and src/domain/halt-reasons.ts',
    ),
    '## Risk guards',
    '',
    'Every order is checked by all four guards (drawdown, leverage, liquidity, exposure), and all four verdicts are',
    'recorded in the decision entry. A refusal is a `risk_rejected` line with its code, the measured value and the',
    'limit, and is counted by `tcs_trading_risk_denials_total{guard,code}`.',
    '',
    ...table(
      ['code', 'guards', 'order', 'meaning'],
      Object.entries(catalogs.guards).map(([name, e]) => [
        code(name),
        e.guards.join(', '),
        e.passes ? 'passes' : 'refused',
        e.meaning,
      ]),
    ),
    '## Order manager refusals',
    '',
    'An approved order the order manager would not submit: an `order_refused` line with the code (the venue never',
    'saw it; `order_rejected` is the venue’s own refusal), counted by `tcs_trading_submissions_refused_total{code}`.',
    '',
    ...simple(catalogs.refusals),
    '## Arbitration reasons',
    '',
    'Every signal of a cycle is ranked; the decision entry records the reason it was or was not selected.',
    '',
    ...simple(catalogs.arbitration),
    '## Allocator skips',
    '',
    'A selected signal the allocator did not turn into an order: the proposal’s `skipped.code` in the decision entry.',
    '',
    ...simple(catalogs.allocation),
    '## Safety halt reasons',
    '',
    'Why the trading process stopped opening exposure: the `reason` of a `trading_halted` line, of',
    '`tcs_trading_halt{reason}` and of /health’s `trading_process` (`halted (<reason>): <cause>`). Every open order is',
    'cancelled on a halt; it ends, with a `trading_halt_ended` line, once the checks pass again and the halt is recorded.',
    '',
    ...simple(catalogs.halts),
  ].join('\n');
}
