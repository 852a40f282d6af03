/**
 * Bounded series for the report, whatever the run's length (the tracker does not know it ahead).
 *
 * MinMaxSeries keeps buckets of consecutive points, each remembering its lowest and highest point;
 * when there are too many buckets, neighbours merge in pairs and a bucket's width doubles. Every
 * extreme survives a merge, so a drawdown trough or a price spike is never averaged away, and the
 * cost per point is O(1) amortised. RingBuffer keeps the last fills for the report's table.
 */
export interface SeriesPoint {
  /** Epoch ms. */
  t: number;
  v: number;
}

interface Bucket {
  n: number;
  minT: number;
  minV: number;
  maxT: number;
  maxV: number;
}

export class MinMaxSeries {
  private buckets: Bucket[] = [];
  private width = 1;
  private last: SeriesPoint | null = null;
  private readonly maxBuckets: number;

  /** At most `maxPoints` points come out of `points()` (two per bucket plus the last point). */
  constructor(maxPoints: number) {
    this.maxBuckets = Math.max(1, (maxPoints - 1) >> 1);
  }

  add(t: number, v: number): void {
    this.last = { t, v };
    const bucket = this.buckets[this.buckets.length - 1];
    if (bucket !== undefined && bucket.n < this.width) {
      bucket.n += 1;
      if (v < bucket.minV) {
        bucket.minV = v;
        bucket.minT = t;
      }
      if (v > bucket.maxV) {
        bucket.maxV = v;
        bucket.maxT = t;
      }
      return;
    }
    this.buckets.push({ n: 1, minT: t, minV: v, maxT: t, maxV: v });
    if (this.buckets.length > this.maxBuckets) this.mergePairs();
  }

  private mergePairs(): void {
    const merged: Bucket[] = [];
    for (let i = 0; i < this.buckets.length; i += 2) {
      const a = this.buckets[i]!;
      const b = this.buckets[i + 1];
      if (b === undefined) {
        merged.push(a);
        continue;
      }
      merged.push({
        n: a.n + b.n,
        minT: b.minV < a.minV ? b.minT : a.minT,
        minV: Math.min(a.minV, b.minV),
        maxT: b.maxV > a.maxV ? b.maxT : a.maxT,
        maxV: Math.max(a.maxV, b.maxV),
      });
    }
    this.buckets = merged;
    this.width *= 2;
  }

  /** The kept points in time order: each bucket's extremes, then the latest point. */
  points(): SeriesPoint[] {
    const out: SeriesPoint[] = [];
    const push = (t: number, v: number) => {
      const prev = out[out.length - 1];
      if (prev === undefined || t > prev.t) out.push({ t, v });
    };
    for (const b of this.buckets) {
      const [first, second] = b.minT <= b.maxT ? [b.minT, b.maxT] : [b.maxT, b.minT];
      push(first, first === b.minT ? b.minV : b.maxV);
      push(second, second === b.maxT ? b.maxV : b.minV);
    }
    if (this.last !== null) push(this.last.t, this.last.v);
    return out;
  }
}

/** The last `size` items added, oldest first. */
export class RingBuffer<T> {
  private items: T[] = [];
  private next = 0;

  constructor(private readonly size: number) {}

  add(item: T): void {
    if (this.items.length < this.size) this.items.push(item);
    else this.items[this.next] = item;
    this.next = (this.next + 1) % this.size;
  }

  values(): T[] {
    return this.items.length < this.size
      ? [...this.items]
      : [...this.items.slice(this.next), ...this.items.slice(0, this.next)];
  }
}
