/**
 * The live account's fees and funding as the exchange booked them (LIVE_INCOME_KEY): the running sums
 * of its income history for the traded symbols since counting began, and where the last read ended
 * (src/adapters/live-venue/income-tally.ts), so a restart goes on counting instead of starting from 0.
 * The paper venue keeps its own with its account (`paper:state`).
 */
import { Type } from 'typebox';

export const IncomeStateSchema = Type.Object({
  /** When counting began (epoch ms). */
  since: Type.Number(),
  /** The time of the latest income counted (epoch ms): the next read starts there. */
  through: Type.Number(),
  /**
   * The incomes counted at `through`, as `<incomeType>:<tranId>` (an id is unique only within a type):
   * a read starting at that ms skips them.
   */
  seen: Type.Array(Type.String()),
  fundingPnl: Type.Number(),
  feesPaid: Type.Number(),
});

export const LiveIncomeSchema = Type.Object({
  /** Whose sums: `<exchange>:<testnet|mainnet>` (as the drawdown reference, live-peaks.ts). */
  account: Type.String(),
  income: IncomeStateSchema,
});
