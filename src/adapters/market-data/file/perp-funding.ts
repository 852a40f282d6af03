/**
 * A perpetual needs its funding rates (docs/strategies/data-format.md): without them it would replay as if
 * funding were zero, or run as spot, and a backtest would quietly leave out a cost. One refusal,
 * shared by the replay (the instrument's kind from SYMBOLS and the manifest) and `tcs data check`
 * (the manifest's kind, else a perpetual, the default kind of SYMBOLS), so the two never disagree.
 */
import type { DataDirectory, SymbolData } from './data-dir.js';
import { DataFileError } from './data-errors.js';
import type { CandleSpan, FundingSeries } from './series.js';

/** A perpetual's funding rates; refused when it has no funding file or one without a single rate. */
export function perpetualFunding(s: SymbolData<CandleSpan>): FundingSeries {
  if (s.funding !== undefined && s.funding.count > 0) return s.funding;
  // Names the funding file that is missing (or empty) and both ways out.
  throw new DataFileError(
    s.fundingFile ?? `funding/${s.symbol}.csv`,
    `${s.symbol} is a perpetual but its funding rates are missing: add them (tcs data download writes them), ` +
      `or trade it as spot (declare "kind": "spot" for ${s.symbol} in manifest.json, or SYMBOLS=${s.symbol}:spot)`,
  );
}

/** `tcs data check`'s rule: every symbol the manifest does not declare spot is a perpetual. */
export function assertPerpetualsFunded(data: DataDirectory<CandleSpan>): void {
  const spot = new Set(data.manifest?.instruments.filter((i) => i.kind === 'spot').map((i) => i.symbol));
  for (const s of data.symbols) if (!spot.has(s.symbol)) perpetualFunding(s);
}
