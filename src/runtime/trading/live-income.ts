/**
 * The live account's fees and funding for the trading process: an IncomeTally on the exchange's
 * income history (src/adapters/live-venue/income-tally.ts), its sums kept in the store
 * (LIVE_INCOME_KEY) so a restart goes on counting. Sums of another account (a move from the testnet
 * to mainnet on one store) are not this one's: counting starts again, and says so.
 */
import type { Exchange } from 'ccxt';
import type { Logger } from 'pino';
import type { SymbolMap } from '../../adapters/live-venue/ccxt-mapping.js';
import { IncomeTally } from '../../adapters/live-venue/income-tally.js';
import type { IncomeLine } from '../../adapters/live-venue/income-tally.js';
import { LIVE_INCOME_KEY } from '../../domain/runtime-documents.js';
import type { Clock } from '../../ports/clock.js';
import { readDocument, writeDocument } from '../../ports/documents.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';

export async function openIncomeTally(
  read: (startTime: number, limit: number) => Promise<IncomeLine[]>,
  exchange: Exchange,
  symbols: SymbolMap,
  account: string,
  deps: { clock: Clock; log: Logger; kv: KeyValueStore },
  pageSize?: number,
): Promise<IncomeTally> {
  const found = await readDocument(deps.kv, LIVE_INCOME_KEY);
  if (found && found.account !== account)
    deps.log.warn(
      { stored: found.account, account },
      "live venue: the stored fees and funding are another account's; counting this one's from now",
    );
  return new IncomeTally({
    fetch: read,
    ...(pageSize === undefined ? {} : { pageSize }),
    symbols: new Set(symbols.symbols.map((s) => exchange.market(symbols.unified(s)).id as string)),
    now: () => deps.clock.now(),
    initial: found?.account === account ? found.income : null,
    save: (income) => writeDocument(deps.kv, LIVE_INCOME_KEY, { account, income }),
    unconverted: (asset) =>
      deps.log.warn(
        { asset },
        `live venue: fees are paid in ${asset} on this account; they are not converted to USDT and the account's fees leave them out`,
      ),
    failing: (err) =>
      deps.log.warn({ err }, 'live venue: the income history could not be read; fees and funding stay as last read'),
  });
}
