/**
 * The range a configured fee rate may take (FEE_MAKER, FEE_TAKER, a data manifest's per-symbol
 * fees), as fractions of fill notional (0.0005 = 0.05 % = 5 bp). A taker pays, from nothing up to
 * 1 %; a maker may be paid a rebate of up to 0.1 %, as some exchanges' top tiers are. Anything
 * outside is a typo (a rate in basis points or percent), refused rather than simulated.
 */
export const FEE_RANGE = {
  maker: { min: -0.001, max: 0.01 },
  taker: { min: 0, max: 0.01 },
} as const;
