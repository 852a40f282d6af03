/**
 * The trading-activity figures of one `tcs simulate` run directory (issue 19, item 3): fills, traded
 * notional, turnover, fees, time in the market, how often positions change, return and drawdown,
 * computed from the files the run wrote (trades.csv, equity.csv, summary.json; docs/strategies/simulation-metrics.md)
 * and cross-checked against summary.json where both give the same figure. DEFINITIONS says exactly
 * how each figure is computed; default-turnover.ts prints them. Nothing here runs a simulation.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One line per figure, as printed under the table: the definitions the section depends on. */
export const DEFINITIONS: readonly string[] = [
  'days = cycles × cycle seconds ÷ 86,400 (simulated time; the warm-up cycles before the first order are included).',
  'fills = rows of trades.csv (every fill: orders, liquidations, deleverages); a partial fill is one row.',
  'traded notional V = Σ |qty × price| over those rows (trades.csv `notional`).',
  'mean NAV = mean of equity.csv `nav` over all cycles (the same denominator as summary.json `turnover`); NAV₀ = starting cash.',
  'turnover (run) = V ÷ mean NAV; per day = that ÷ days. "× NAV₀ per day" = V ÷ NAV₀ ÷ days.',
  'last fill = simulated days from the start of the run to the last fill; "turnover per day to the last fill" = V ÷ mean NAV of the cycles up to that fill ÷ those days (a run that stops trading early, e.g. flat after the drawdown limit, is not averaged over its idle days).',
  'fees = Σ trades.csv `fee` (checked against summary.json `fees`); per day = fees ÷ days; "% NAV per day" = fees ÷ days ÷ mean NAV.',
  'in market = share of cycles whose equity.csv `gross_exposure` (Σ |qty × mark|) is > 0 at the end of the cycle (= summary.json `exposure_time`).',
  "position change = a symbol whose position after its last fill of a cycle differs from its position before that cycle's fills (a flip done as close + open in one cycle is one change). " +
    '"every … min (any symbol)" = simulated minutes ÷ cycles with at least one change; "(each symbol)" = simulated minutes × symbols ÷ all changes, i.e. how often one symbol changes on average.',
  'side change = a position change that moves a symbol between long, flat and short (a resize on the same side is not one); "every … min" = simulated minutes ÷ side changes of all symbols together.',
  'return = summary.json `total_return` (final NAV ÷ NAV₀ − 1); max drawdown = summary.json `max_drawdown` (largest fall below the running NAV peak).',
  'PnL before fees = PnL + fees (trading and funding result alone). fees ÷ loss = fees ÷ (NAV₀ − final NAV) when the run lost, "—" otherwise: the share of the net loss that fees alone account for.',
];

export interface TurnoverFigures {
  cycles: number;
  cycleSeconds: number;
  days: number;
  symbols: number;
  startingNav: number;
  meanNav: number;
  finalNav: number;
  fills: number;
  notional: number;
  turnover: number;
  turnoverPerDay: number;
  turnoverStartPerDay: number;
  /** Days from the start of the run to the last fill (0 without fills). */
  lastFillDay: number;
  /** V ÷ mean NAV up to the last fill ÷ lastFillDay; null without fills. */
  turnoverPerTradingDay: number | null;
  fees: number;
  feesPerDay: number;
  feesPctNavPerDay: number;
  inMarket: number;
  changeCycles: number;
  positionChanges: number;
  sideChanges: number;
  minutesPerChangeCycle: number;
  minutesPerChangePerSymbol: number;
  minutesPerSideChange: number;
  totalReturn: number;
  maxDrawdown: number;
  pnl: number;
  pnlBeforeFees: number;
  /** null when the run did not lose. */
  feesShareOfLoss: number | null;
  /** Where a recomputed figure disagrees with summary.json (should stay empty). */
  mismatches: string[];
}

interface Summary {
  cycles: number;
  from: string;
  cycle_seconds: number;
  starting_cash: number;
  final_nav: number;
  pnl: number;
  total_return: number;
  max_drawdown: number;
  fills: number;
  turnover: number;
  fees: number;
  exposure_time: number | null;
  pnl_by_symbol: Record<string, unknown>;
}

/** One CSV line into fields; the recorder quotes a field holding a comma or quote ("" inside). */
function fields(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      out.push(cell);
      cell = '';
    } else cell += c;
  }
  out.push(cell);
  return out;
}

/** Rows of a CSV file as records keyed by its header. */
function readCsv(path: string): Array<Record<string, string>> {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const header = fields(lines[0] ?? '');
  return lines.slice(1).map((line) => {
    const cells = fields(line);
    return Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']));
  });
}

/** Long, flat or short; as the recorder does, a remainder below 1e-9 × max(1, qty) is flat (float dust). */
function side(position: number, qty: number): -1 | 0 | 1 {
  if (Math.abs(position) <= 1e-9 * Math.max(1, qty)) return 0;
  return position > 0 ? 1 : -1;
}

/** Changes of position per (cycle, symbol): fills are grouped by their time, each cycle's fills share one. */
function positionChanges(trades: Array<Record<string, string>>): {
  changeCycles: number;
  changes: number;
  sides: number;
} {
  const position = new Map<string, number>();
  let changeCycles = 0;
  let changes = 0;
  let sides = 0;
  for (let i = 0; i < trades.length;) {
    const ts = trades[i]!.ts;
    const before = new Map<string, { pos: number; qty: number }>();
    for (; i < trades.length && trades[i]!.ts === ts; i += 1) {
      const t = trades[i]!;
      const symbol = t.symbol!;
      const qty = Number(t.qty);
      const seen = before.get(symbol);
      if (!seen) before.set(symbol, { pos: position.get(symbol) ?? 0, qty });
      else seen.qty = Math.max(seen.qty, qty);
      position.set(symbol, Number(t.position_after));
    }
    let any = false;
    for (const [symbol, { pos, qty }] of before) {
      const after = position.get(symbol)!;
      if (Math.abs(after - pos) <= 1e-9 * Math.max(1, qty)) continue;
      changes += 1;
      any = true;
      if (side(after, qty) !== side(pos, qty)) sides += 1;
    }
    if (any) changeCycles += 1;
  }
  return { changeCycles, changes, sides };
}

/** The span up to the last fill: equity.csv rows are cycle ends, the run starts one cycle before the first. */
function tradingPeriod(
  summary: Summary,
  trades: Array<Record<string, string>>,
  equity: Array<Record<string, string>>,
  notional: number,
): { lastFillDay: number; turnoverPerTradingDay: number | null } {
  const last = trades[trades.length - 1];
  if (!last) return { lastFillDay: 0, turnoverPerTradingDay: null };
  const start = Date.parse(summary.from);
  const end = Date.parse(last.ts!);
  const navs = equity.filter((row) => Date.parse(row.ts!) <= end).map((row) => Number(row.nav));
  const meanNav = navs.reduce((sum, nav) => sum + nav, 0) / navs.length;
  const lastFillDay = (end - start) / 86_400_000;
  return { lastFillDay, turnoverPerTradingDay: notional / meanNav / lastFillDay };
}

/** Agree to 1e-6 relative (summary.json rounds to 8 decimals). */
function check(mismatches: string[], name: string, ours: number, theirs: number | null): void {
  if (theirs === null) return;
  if (Math.abs(ours - theirs) > 1e-6 * Math.max(1, Math.abs(theirs)))
    mismatches.push(`${name}: computed ${ours}, summary.json ${theirs}`);
}

export function turnoverFigures(dir: string): TurnoverFigures {
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
  const trades = readCsv(join(dir, 'trades.csv'));
  const equity = readCsv(join(dir, 'equity.csv'));
  const mismatches: string[] = [];

  const cycles = equity.length;
  const days = (cycles * summary.cycle_seconds) / 86_400;
  const minutes = days * 1_440;
  const symbols = Object.keys(summary.pnl_by_symbol).length;
  const meanNav = equity.reduce((sum, row) => sum + Number(row.nav), 0) / cycles;
  const notional = trades.reduce((sum, row) => sum + Number(row.notional), 0);
  const fees = trades.reduce((sum, row) => sum + Number(row.fee), 0);
  const inMarket = equity.filter((row) => Number(row.gross_exposure) > 0).length / cycles;
  const { changeCycles, changes, sides } = positionChanges(trades);
  const turnover = notional / meanNav;
  const { lastFillDay, turnoverPerTradingDay } = tradingPeriod(summary, trades, equity, notional);

  check(mismatches, 'cycles', cycles, summary.cycles);
  check(mismatches, 'fills', trades.length, summary.fills);
  check(mismatches, 'turnover', turnover, summary.turnover);
  check(mismatches, 'fees', fees, summary.fees);
  check(mismatches, 'exposure_time', inMarket, summary.exposure_time);

  const loss = summary.starting_cash - summary.final_nav;
  return {
    cycles,
    cycleSeconds: summary.cycle_seconds,
    days,
    symbols,
    startingNav: summary.starting_cash,
    meanNav,
    finalNav: summary.final_nav,
    fills: trades.length,
    notional,
    turnover,
    turnoverPerDay: turnover / days,
    turnoverStartPerDay: notional / summary.starting_cash / days,
    lastFillDay,
    turnoverPerTradingDay,
    fees,
    feesPerDay: fees / days,
    feesPctNavPerDay: fees / days / meanNav,
    inMarket,
    changeCycles,
    positionChanges: changes,
    sideChanges: sides,
    minutesPerChangeCycle: minutes / changeCycles,
    minutesPerChangePerSymbol: (minutes * symbols) / changes,
    minutesPerSideChange: minutes / sides,
    totalReturn: summary.total_return,
    maxDrawdown: summary.max_drawdown,
    pnl: summary.pnl,
    pnlBeforeFees: summary.pnl + fees,
    feesShareOfLoss: loss > 0 ? fees / loss : null,
    mismatches,
  };
}
