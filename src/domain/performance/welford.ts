/**
 * Online moments of the per-cycle returns (Welford), so a 500,000-cycle run keeps three numbers
 * instead of 500,000 returns. The downside sum is the Sortino denominator (target return 0).
 */
export interface ReturnMoments {
  readonly count: number;
  readonly mean: number;
  /** Sample variance (n − 1); 0 below two returns. */
  readonly variance: number;
  /** Mean of min(r, 0)² over all returns: the downside variance with target 0. */
  readonly downsideVariance: number;
  readonly negatives: number;
}

export class ReturnAccumulator implements ReturnMoments {
  count = 0;
  mean = 0;
  private m2 = 0;
  private downsideSq = 0;
  negatives = 0;

  add(r: number): void {
    this.count += 1;
    const delta = r - this.mean;
    this.mean += delta / this.count;
    this.m2 += delta * (r - this.mean);
    if (r < 0) {
      this.downsideSq += r * r;
      this.negatives += 1;
    }
  }

  get variance(): number {
    return this.count > 1 ? this.m2 / (this.count - 1) : 0;
  }

  get downsideVariance(): number {
    return this.count > 0 ? this.downsideSq / this.count : 0;
  }
}
