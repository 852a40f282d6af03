/**
 * The live venue's drawdown reference (LIVE_PEAKS_KEY): the NAV highs over RISK_DRAWDOWN_WINDOW as
 * the peak window keeps them (src/domain/risk/peak-window.ts), written when they change and read at
 * start, so a restart measures drawdown from the same peak instead of from the NAV it starts at. The
 * paper venue keeps its own with its account (`paper:state`).
 */
import { Type } from 'typebox';

export const LivePeaksSchema = Type.Object({
  /** Whose highs: `<exchange>:<testnet|mainnet>`. Highs of another account (a move from the testnet to mainnet on one store) are not this one's reference. */
  account: Type.String(),
  /** [bucket start (epoch ms), highest NAV in it], oldest first. */
  peaks: Type.Array(Type.Tuple([Type.Number(), Type.Number()])),
});
