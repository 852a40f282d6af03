/**
 * The live start's account check (issue 32, item 5): src/adapters/live-venue/account-check.ts reads
 * (and sets, when configured) the account; here a problem becomes a ConfigError naming what to
 * change on the exchange — `tcs start` exits 2 before the first order — and what the account has is
 * logged, so an operator who left EXCHANGE_LEVERAGE unset still sees the leverage traded at.
 */
import type { Exchange } from 'ccxt';
import type { Logger } from 'pino';
import { checkAccount } from '../../adapters/live-venue/account-check.js';
import type { AccountWanted } from '../../adapters/live-venue/account-check.js';
import type { SymbolMap } from '../../adapters/live-venue/ccxt-mapping.js';
import type { Clock } from '../../ports/clock.js';
import { ConfigError } from '../config-error.js';

export async function verifyLiveAccount(
  exchange: Exchange,
  symbols: SymbolMap,
  wanted: AccountWanted,
  deps: { clock: Clock; log: Logger },
): Promise<void> {
  const checked = await checkAccount(exchange, symbols, wanted, { now: () => deps.clock.now(), apply: true });
  if (checked.problems.length > 0)
    throw new ConfigError(`the exchange account cannot be traded as it is: ${checked.problems.join('; ')}`);
  const set = checked.changed.length > 0 ? `; set ${checked.changed.join(', ')}` : '';
  deps.log.info(
    { skewMs: checked.skewMs, symbols: checked.symbols, changed: checked.changed },
    `live venue: the account is one-way and single-asset${set}`,
  );
}
