/**
 * The fill-by-fill check of the backtrader comparison: tcs's trades.csv (ts,client_order_id,symbol,
 * side,qty,price,…; ts the decision's time = the filling bar's open) against backtrader/sma_cross.py's
 * fill file (time of the bar filled on, symbol, side, price). Prices compare as numbers, exactly: an
 * ulp apart is a different fill, since both engines read the same decimals.
 */

/** Fills as `time,symbol,side,price` lines, sorted: tcs's trades.csv and backtrader's fill file alike. */
function fillLines(text: string, tcs: boolean): string[] {
  return text
    .trim()
    .split('\n')
    .slice(tcs ? 1 : 0)
    .map((row) => {
      const f = row.split(',');
      // trades.csv: ts,client_order_id,symbol,side,qty,price,…; backtrader: time,symbol,side,price.
      return tcs ? `${f[0]!.slice(0, 19)},${f[2]},${f[3]},${Number(f[5])}` : `${f[0]},${f[1]},${f[2]},${Number(f[3])}`;
    })
    .sort();
}

/** How many of the two engines' fills differ (time, symbol, side or price), and the first that does. */
export function compareFills(tcsTrades: string, btFills: string): { differ: number; first: string | null } {
  const a = fillLines(tcsTrades, true);
  const b = fillLines(btFills, false);
  const only = (x: string[], y: string[]) => {
    const set = new Set(y);
    return x.filter((line) => !set.has(line));
  };
  const onlyTcs = only(a, b);
  const onlyBt = only(b, a);
  const first = onlyTcs[0] ?? onlyBt[0];
  return {
    differ: onlyTcs.length + onlyBt.length,
    first: first === undefined ? null : `${onlyTcs.includes(first) ? 'tcs' : 'backtrader'} only: ${first}`,
  };
}
