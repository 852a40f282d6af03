/**
 * The fake exchange's dialects by the ccxt id of the exchange each speaks, so a test (and the live
 * end-to-end harness, ../live-e2e.ts) names the exchange and gets the fake that speaks it, and the
 * contract suites run on every one (test/contracts/live-venue.contract.test.ts,
 * live-feed.contract.test.ts). A new exchange's dialect is one line here.
 */
import type { Dialect } from './dialect.js';
import { BINANCE_SPOT_DIALECT } from './dialects/binance-spot/index.js';
import { BINANCE_USDM_DIALECT } from './dialects/binanceusdm/index.js';
import { BITGET_DIALECT } from './dialects/bitget/index.js';
import { BYBIT_DIALECT } from './dialects/bybit/index.js';
import { OKX_DIALECT } from './dialects/okx/index.js';

const DIALECTS: readonly Dialect[] = [
  BINANCE_USDM_DIALECT,
  BYBIT_DIALECT,
  OKX_DIALECT,
  BITGET_DIALECT,
  BINANCE_SPOT_DIALECT,
];

/** Every dialect the fake speaks, in the order above. */
export function fakeDialects(): readonly Dialect[] {
  return DIALECTS;
}

/** The dialect speaking the exchange `id` (a supported exchange's ccxt id); throws naming the known ones. */
export function fakeDialect(id: string): Dialect {
  const dialect = DIALECTS.find((d) => d.id === id);
  if (!dialect)
    throw new Error(`the fake exchange speaks no "${id}": it speaks ${DIALECTS.map((d) => d.id).join(', ')}`);
  return dialect;
}
