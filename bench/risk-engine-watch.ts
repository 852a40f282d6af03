/**
 * What the risk engine saw and did in a risk run (bench/risk-run.ts), read from outside the engine:
 * the account each cycle showed it (`risk.observe`, through the actor system's inspection hook, so the
 * drawdown is judged on exactly the account the engine judged, after the bar's price move and before
 * the cycle's fills), the state it answered with, its own closes in `reducing` (verdicts `by: 'risk'`),
 * and from the event lines its state changes (`risk_state_changed`, counted by from→to) and the fills
 * of its closes (client ids `rsk-…`). `order_submitted` lines carry no client id, so a submission is
 * attributed to the order whose `order_filled` line follows it (the order manager emits the two
 * together); a submission with no fill in the same breath is counted apart.
 *
 * Per cycle it splits a drawdown beyond RISK_MAX_DRAWDOWN (measured from the engine's own reference,
 * the venue's peak NAV over RISK_DRAWDOWN_WINDOW) into what the price move did (already beyond the
 * limit when the engine looked) and what the cycle's fills did (within the limit when it looked,
 * beyond it after the fills: the fee and spread of orders it approved), and counts breach cycles in
 * which a fill grew any position — the engine should only ever shrink them then.
 */
import type { InspectionEvent } from 'xstate';
import type { EventLine } from '../src/domain/event-lines.js';
import type { Book } from './risk-figures.js';

export interface DrawdownAttribution {
  /** From the engine's reference (the venue's windowed peak NAV) at each cycle's end. */
  max: number;
  maxCycle: number;
  /** The cycle of the maximum: the drawdown at the cycle before, what the engine was shown, its state, the fills. */
  maxCycleDetail: { previous: number; observed: number | null; state: string; fills: string[] } | null;
  cyclesOver: number;
  /** The largest drawdown the engine was shown (risk.observe), and when. */
  observedMax: number;
  observedMaxCycle: number;
  /** The drawdown at the end of the cycle before it: the rest is that bar's price move. */
  observedMaxPrevious: number;
  /** The state the engine answered that cycle with. */
  observedMaxState: string;
  /** Within the limit at the last cycle's end, beyond it when the engine looked: the bar's price move. */
  priceCrossings: number;
  /** Within the limit when the engine looked, beyond it after the cycle's fills. */
  fillCrossings: number;
  /** The largest of those: the drawdown the engine saw, and after the fills. */
  worstFillCrossing: { cycle: number; observed: number; after: number; fills: string[] } | null;
  /** Cycles in which the engine was shown a drawdown beyond the limit … */
  observedOver: number;
  /** … and of those, cycles in which a fill grew a position (|qty| up, or flipped). */
  grownWhileOver: number;
  /** Cycles the engine spent in `reducing` in which a fill grew a position. */
  grownWhileReducing: number;
  grownExamples: Array<{ cycle: number; observed: number; state: string; grown: string[]; fills: string[] }>;
}

export interface EngineRun {
  /** risk_state_changed lines, by `from→to`. */
  transitions: Record<string, number>;
  /** The first few changes: cycle, from→to, drawdown, reason. */
  transitionLog: Array<{ cycle: number; change: string; drawdown: number | null; reason: string }>;
  /** `reducing` entered again within 5 cycles of the window ending it. */
  quickReentries: number;
  /** Cycles by the state the engine answered `risk.observe` with. */
  stateCycles: Record<string, number>;
  closes: {
    /** Verdicts by: 'risk', approved and denied (code of the first failing check). */
    approved: number;
    denied: Record<string, number>;
    /** order_submitted lines followed by an `rsk-` fill; submissions with no fill line after them (any order). */
    submitted: number;
    submittedUnattributed: number;
    /** Distinct `rsk-` orders that filled, and their fill lines. */
    filledOrders: number;
    fills: number;
    rejected: number;
    refused: number;
  };
  drawdown: DrawdownAttribution;
  /** The inspection hook saw risk.observe (false on code before issue 20: the fields above stay empty). */
  observed: boolean;
}

const isRisk = (id: unknown) => typeof id === 'string' && id.startsWith('rsk-');

/** Positions a cycle's fills grew: |qty| larger than before, or the side flipped. */
export function grownPositions(before: Book, after: Book): string[] {
  const out: string[] = [];
  for (const [symbol, q1] of after.qty) {
    const q0 = before.qty.get(symbol) ?? 0;
    const tol = 1e-9 * Math.max(1, Math.abs(q0));
    const flipped = q0 !== 0 && q1 !== 0 && Math.sign(q0) !== Math.sign(q1);
    if (Math.abs(q1) > Math.abs(q0) + tol || flipped) out.push(`${symbol} ${q0} → ${q1}`);
  }
  return out;
}

export function engineWatch(maxDrawdown: number) {
  const run: EngineRun = {
    transitions: {},
    transitionLog: [],
    quickReentries: 0,
    stateCycles: {},
    closes: {
      approved: 0,
      denied: {},
      submitted: 0,
      submittedUnattributed: 0,
      filledOrders: 0,
      fills: 0,
      rejected: 0,
      refused: 0,
    },
    drawdown: {
      max: 0,
      maxCycle: 0,
      maxCycleDetail: null,
      cyclesOver: 0,
      observedMax: 0,
      observedMaxCycle: 0,
      observedMaxPrevious: 0,
      observedMaxState: '',
      priceCrossings: 0,
      fillCrossings: 0,
      worstFillCrossing: null,
      observedOver: 0,
      grownWhileOver: 0,
      grownWhileReducing: 0,
      grownExamples: [],
    },
    observed: false,
  };
  const filledIds = new Set<string>();
  let awaitingFill = false;
  let cycle = 0;
  let seen: { nav: number; peakNav: number } | null = null;
  let state = '';
  let lastDd = 0;
  let leftReducingAt = Number.NEGATIVE_INFINITY;
  const ddOf = (nav: number, peakNav: number) => {
    const peak = Math.max(peakNav, nav);
    return peak > 0 ? (peak - nav) / peak : 1;
  };

  return {
    run,
    inspect(ev: InspectionEvent) {
      if (ev.type !== '@xstate.event') return;
      const e = ev.event as { type: string } & Record<string, unknown>;
      if (e.type === 'risk.observe') {
        const account = e.account as { nav: number; peakNav: number };
        seen = { nav: account.nav, peakNav: account.peakNav };
        run.observed = true;
      } else if (e.type === 'risk.observed') {
        state = String(e.state);
      } else if (e.type === 'risk.evaluated') {
        for (const v of e.verdicts as Array<{
          by?: string;
          approval: unknown;
          decision: { checks: Array<{ passed: boolean; code: string }> };
        }>) {
          if (v.by !== 'risk') continue;
          if (v.approval) run.closes.approved++;
          else {
            const code = v.decision.checks.find((c) => !c.passed)?.code ?? 'unknown';
            run.closes.denied[code] = (run.closes.denied[code] ?? 0) + 1;
          }
        }
      }
    },
    /** Every event line, before the run's own counter sees it. */
    line(line: EventLine) {
      const l = line as EventLine & Record<string, unknown>;
      if (line.event === 'order_submitted') {
        if (awaitingFill) run.closes.submittedUnattributed++;
        awaitingFill = true;
        return;
      }
      if (line.event === 'order_filled') {
        const id = l.client_order_id;
        if (awaitingFill && isRisk(id)) run.closes.submitted++;
        awaitingFill = false;
        if (isRisk(id)) {
          run.closes.fills++;
          if (!filledIds.has(id as string)) {
            filledIds.add(id as string);
            run.closes.filledOrders++;
          }
        }
        return;
      }
      if (awaitingFill) run.closes.submittedUnattributed++;
      awaitingFill = false;
      if (line.event === 'order_rejected' && isRisk(l.client_order_id)) run.closes.rejected++;
      if (line.event === 'order_refused' && isRisk(l.client_order_id)) run.closes.refused++;
      if (line.event === 'risk_state_changed') {
        const change = `${String(l.from)}→${String(l.to)}`;
        run.transitions[change] = (run.transitions[change] ?? 0) + 1;
        if (change === 'reducing→active') leftReducingAt = cycle;
        if (change === 'active→reducing' && cycle - leftReducingAt <= 5) run.quickReentries++;
        if (run.transitionLog.length < 20)
          run.transitionLog.push({
            cycle,
            change,
            drawdown: typeof l.drawdown === 'number' ? l.drawdown : null,
            reason: String(l.reason),
          });
      }
    },
    /** The NAV the engine was shown this cycle (after the bar's price move, before the fills), if any. */
    shownNav(): number | null {
      return seen?.nav ?? null;
    },
    beginCycle(n: number) {
      cycle = n;
      seen = null;
      state = '';
    },
    /** After the cycle settled: its account at the end, the books before and after, its fill lines. */
    endCycle(account: { nav: number; peakNav: number }, before: Book, after: Book, fills: readonly string[]) {
      if (awaitingFill) run.closes.submittedUnattributed++;
      awaitingFill = false;
      const d = run.drawdown;
      const dd = ddOf(account.nav, account.peakNav);
      if (dd > d.max) {
        const observed = seen ? ddOf(seen.nav, seen.peakNav) : null;
        const detail = { previous: lastDd, observed, state, fills: [...fills] };
        Object.assign(d, { max: dd, maxCycle: cycle, maxCycleDetail: detail });
      }
      if (dd > maxDrawdown) d.cyclesOver++;
      if (state) run.stateCycles[state] = (run.stateCycles[state] ?? 0) + 1;
      if (seen) {
        const observed = ddOf(seen.nav, seen.peakNav);
        if (observed > d.observedMax)
          Object.assign(d, {
            observedMax: observed,
            observedMaxCycle: cycle,
            observedMaxPrevious: lastDd,
            observedMaxState: state,
          });
        if (observed > maxDrawdown && lastDd <= maxDrawdown) d.priceCrossings++;
        if (observed <= maxDrawdown && dd > maxDrawdown) {
          d.fillCrossings++;
          if (!d.worstFillCrossing || dd > d.worstFillCrossing.after)
            d.worstFillCrossing = { cycle, observed, after: dd, fills: [...fills] };
        }
        const grown = grownPositions(before, after);
        const over = observed > maxDrawdown;
        if (over) d.observedOver++;
        if (over && grown.length > 0) d.grownWhileOver++;
        if (state === 'reducing' && grown.length > 0) d.grownWhileReducing++;
        if ((over || state === 'reducing') && grown.length > 0 && d.grownExamples.length < 10)
          d.grownExamples.push({ cycle, observed, state, grown, fills: [...fills] });
      }
      lastDd = dd;
    },
  };
}
