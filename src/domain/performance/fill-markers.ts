/**
 * The fill markers of one symbol's price chart, thinned to what a chart can show: fills are
 * aggregated into time buckets, one marker per bucket and group (buys, sells, and forced buys and
 * sells: liquidations, deleverages and the risk engine's closes), carrying the group's count, total
 * quantity and average price. Buckets start one cycle wide from the first fill; when there are
 * more than `maxBuckets`, their width doubles and neighbours merge, so a run of any length keeps at
 * most 4 × maxBuckets markers per symbol, and the same fills always give the same markers.
 * The report's charts show the whole run (no zoom), so a bucket is a few pixels wide.
 */
import type { TradeObservation } from './observations.js';

export interface FillMarker {
  /** Epoch ms of the group's first fill in its bucket. */
  t: number;
  side: 'BUY' | 'SELL';
  /** A fill no strategy asked for (liquidation, deleverage, risk_reduce, risk_trim). */
  forced: boolean;
  count: number;
  qty: number;
  /** Volume-weighted average price of the group's fills. */
  price: number;
}

const FORCED: ReadonlySet<TradeObservation['kind']> = new Set([
  'liquidation',
  'deleverage',
  'risk_reduce',
  'risk_trim',
]);

interface Group {
  t: number;
  count: number;
  qty: number;
  notional: number;
}

interface Bucket {
  index: number;
  /** BUY, SELL, forced BUY, forced SELL. */
  groups: (Group | undefined)[];
}

export class FillMarkers {
  private buckets: Bucket[] = [];
  private origin: number | null = null;

  constructor(
    private width: number,
    private readonly maxBuckets: number,
  ) {}

  add(t: TradeObservation): void {
    this.origin ??= t.ts;
    const index = Math.floor((t.ts - this.origin) / this.width);
    let bucket = this.buckets[this.buckets.length - 1];
    if (bucket === undefined || bucket.index !== index) {
      bucket = { index, groups: [] };
      this.buckets.push(bucket);
    }
    const slot = (t.side === 'BUY' ? 0 : 1) + (FORCED.has(t.kind) ? 2 : 0);
    const group = (bucket.groups[slot] ??= { t: t.ts, count: 0, qty: 0, notional: 0 });
    group.count += 1;
    group.qty += t.qty;
    group.notional += t.qty * t.price;
    while (this.buckets.length > this.maxBuckets) this.merge();
  }

  private merge(): void {
    this.width *= 2;
    const merged: Bucket[] = [];
    for (const b of this.buckets) {
      const index = Math.floor(b.index / 2);
      const into = merged[merged.length - 1];
      if (into === undefined || into.index !== index) {
        merged.push({ index, groups: b.groups });
        continue;
      }
      for (let slot = 0; slot < 4; slot++) {
        const g = b.groups[slot];
        const h = into.groups[slot];
        if (g === undefined) continue;
        into.groups[slot] =
          h === undefined
            ? g
            : {
                t: Math.min(h.t, g.t),
                count: h.count + g.count,
                qty: h.qty + g.qty,
                notional: h.notional + g.notional,
              };
      }
    }
    this.buckets = merged;
  }

  /** The markers in time order (within a bucket, by their first fill, then buys before sells). */
  values(): FillMarker[] {
    const out: FillMarker[] = [];
    for (const b of this.buckets) {
      const inBucket: FillMarker[] = [];
      b.groups.forEach((g, slot) => {
        if (g === undefined) return;
        const side = slot % 2 === 0 ? 'BUY' : 'SELL';
        inBucket.push({ t: g.t, side, forced: slot >= 2, count: g.count, qty: g.qty, price: g.notional / g.qty });
      });
      out.push(...inBucket.sort((a, b) => a.t - b.t));
    }
    return out;
  }
}
