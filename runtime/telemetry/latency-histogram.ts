// A log-linear latency histogram in decimal steps: each decade from 1 µs to 100 s is cut into 90 equal
// buckets (two significant digits, at most 10% wide), held in one fixed Float64Array. Recording is a few
// comparisons and an increment, with nothing allocated; two histograms merge by adding their counts, so the
// figures of many workers and many minutes combine exactly. Decimal edges (rather than HdrHistogram's powers
// of two) make every Prometheus bucket bound of the 1-2.5-5 series an edge here, so /metrics is exact too.

/** Bucket 0 holds values up to 1 µs; then 8 decades of 90 buckets; the last bucket holds values above 100 s. */
const DECADES = 8;
const PER_DECADE = 90;
export const BUCKET_COUNT = 1 + DECADES * PER_DECADE + 1;
const OVERFLOW = BUCKET_COUNT - 1;
/** The upper end of each decade, in microseconds: 10 µs … 100 s. */
const DECADE_TOPS = Array.from({ length: DECADES }, (_, decade) => 10 ** (decade + 1));
/** The width of one bucket in each decade, in microseconds (0.1 µs, 1 µs, … 1 s). */
const STEPS = Array.from({ length: DECADES }, (_, decade) => 10 ** (decade - 1));

/** Upper edge (inclusive) of bucket `index`, in microseconds; Infinity for the overflow bucket. */
export function bucketUpperMicros(index: number): number {
  if (index === 0) return 1;
  if (index >= OVERFLOW) return Infinity;
  const decade = Math.floor((index - 1) / PER_DECADE);
  const step = (index - 1) % PER_DECADE;
  // (11 + step) steps of the decade: 1.1, 1.2 … 10 µs; 11, 12 … 100 µs; and so on.
  return decade === 0 ? (11 + step) / 10 : (11 + step) * STEPS[decade];
}

function bucketLowerMicros(index: number): number {
  return index === 0 ? 0 : bucketUpperMicros(index - 1);
}

/** The bucket of a duration in microseconds: upper edges are inclusive, as Prometheus's `le` is. */
export function bucketIndex(micros: number): number {
  if (!(micros > 1)) return 0; // NaN and negative durations (a clock step) land with the fastest
  let decade = 0;
  while (decade < DECADES && micros > DECADE_TOPS[decade]) decade++;
  if (decade === DECADES) return OVERFLOW;
  // Within (10^d, 10^(d+1)]: ceil(micros / step) is 11 … 100. Decade 0 multiplies, so its step of 0.1 stays exact.
  const steps = decade === 0 ? Math.ceil(micros * 10) : Math.ceil(micros / STEPS[decade]);
  return 1 + decade * PER_DECADE + Math.min(Math.max(steps, 11), 100) - 11;
}

/**
 * A histogram as it travels (IPC, the history file, JSON routes): `buckets` holds `[index, count]` pairs
 * flattened, for the non-empty buckets only, in index order; `sum` is in microseconds.
 */
export interface SparseHistogram {
  readonly buckets: readonly number[];
  readonly count: number;
  readonly sum: number;
}

export const EMPTY_SPARSE_HISTOGRAM: SparseHistogram = Object.freeze({ buckets: Object.freeze([]) as readonly number[], count: 0, sum: 0 });

export class LatencyHistogram {
  readonly counts = new Float64Array(BUCKET_COUNT);
  count = 0;
  /** Sum of every recorded value, in microseconds. */
  sum = 0;

  /** Hot path: one duration in microseconds. */
  record(micros: number): void {
    this.counts[bucketIndex(micros)]++;
    this.count++;
    this.sum += micros;
  }

  add(other: LatencyHistogram): void {
    if (other.count === 0) return;
    for (let index = 0; index < BUCKET_COUNT; index++) this.counts[index] += other.counts[index];
    this.count += other.count;
    this.sum += other.sum;
  }

  addSparse(sparse: SparseHistogram): void {
    const { buckets } = sparse;
    for (let at = 0; at + 1 < buckets.length; at += 2) {
      const index = buckets[at];
      if (Number.isInteger(index) && index >= 0 && index < BUCKET_COUNT) this.counts[index] += buckets[at + 1];
    }
    this.count += sparse.count;
    this.sum += sparse.sum;
  }

  toSparse(): SparseHistogram {
    const buckets: number[] = [];
    if (this.count > 0) for (let index = 0; index < BUCKET_COUNT; index++) if (this.counts[index] !== 0) buckets.push(index, this.counts[index]);
    return { buckets, count: this.count, sum: this.sum };
  }

  reset(): void {
    if (this.count === 0) return;
    this.counts.fill(0);
    this.count = 0;
    this.sum = 0;
  }

  /**
   * The value below which a fraction `q` (0..1) of the recordings fall, in microseconds, interpolated
   * linearly inside its bucket (as Prometheus's histogram_quantile does); null when empty.
   */
  quantile(q: number): number | null {
    if (this.count === 0) return null;
    const rank = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (let index = 0; index < BUCKET_COUNT; index++) {
      const inBucket = this.counts[index];
      if (inBucket === 0) continue;
      if (seen + inBucket >= rank) {
        if (index === OVERFLOW) return bucketLowerMicros(index);
        const lower = bucketLowerMicros(index);
        return lower + (bucketUpperMicros(index) - lower) * ((rank - seen) / inBucket);
      }
      seen += inBucket;
    }
    return bucketLowerMicros(OVERFLOW);
  }

  /** How many recordings are at most each bound (microseconds, ascending, each a bucket edge): Prometheus's cumulative buckets. */
  cumulativeCounts(boundIndexes: readonly number[]): number[] {
    const result: number[] = [];
    let seen = 0;
    let index = 0;
    for (const last of boundIndexes) {
      for (; index <= last; index++) seen += this.counts[index];
      result.push(seen);
    }
    return result;
  }
}

/** Merges sparse histograms into one (for a time range, an operation's workers, …). */
export function mergeSparse(histograms: Iterable<SparseHistogram>): LatencyHistogram {
  const merged = new LatencyHistogram();
  for (const histogram of histograms) merged.addSparse(histogram);
  return merged;
}

/** The bucket whose upper edge is exactly `micros`; throws when it is not an edge (a programming error). */
export function edgeIndex(micros: number): number {
  const index = bucketIndex(micros);
  if (bucketUpperMicros(index) !== micros) throw new Error(`${micros} µs is not a bucket edge of the latency histogram`);
  return index;
}
