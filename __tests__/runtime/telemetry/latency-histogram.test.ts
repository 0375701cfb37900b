// The latency histogram: decimal log-linear buckets with inclusive upper edges, percentiles within a bucket's
// width, merging by addition (in any order, sparse or dense), and exact Prometheus bucket counts.
import { BUCKET_COUNT, bucketIndex, bucketUpperMicros, edgeIndex, LatencyHistogram, mergeSparse } from '../../../runtime/telemetry/latency-histogram';
import { DURATION_BUCKETS } from '../../../runtime/telemetry/prometheus-metrics';

describe('LatencyHistogram', () => {
  it('puts a duration in the bucket whose upper edge is the first at or above it', () => {
    expect(bucketIndex(0)).toBe(0);
    expect(bucketIndex(1)).toBe(0);
    expect(bucketUpperMicros(bucketIndex(1.05))).toBeCloseTo(1.1);
    expect(bucketUpperMicros(bucketIndex(250))).toBe(250); // an edge belongs to the bucket it closes (Prometheus `le`)
    expect(bucketUpperMicros(bucketIndex(250.0001))).toBe(260);
    expect(bucketUpperMicros(bucketIndex(99_999))).toBe(100_000);
    expect(bucketUpperMicros(bucketIndex(123_456))).toBe(130_000);
    expect(bucketIndex(100_000_001)).toBe(BUCKET_COUNT - 1);
    expect(bucketUpperMicros(BUCKET_COUNT - 1)).toBe(Infinity);
    // A clock that stepped back, or no measurement at all, counts as the fastest bucket rather than failing.
    expect(bucketIndex(-5)).toBe(0);
    expect(bucketIndex(Number.NaN)).toBe(0);
  });

  it('has buckets at most 10% wide from 1 µs to 100 s, each edge above the last', () => {
    for (let index = 2; index < BUCKET_COUNT - 1; index++) {
      const lower = bucketUpperMicros(index - 1);
      const upper = bucketUpperMicros(index);
      expect(upper).toBeGreaterThan(lower);
      expect((upper - lower) / lower).toBeLessThanOrEqual(0.1 + 1e-9);
    }
  });

  it('answers percentiles within the width of their bucket', () => {
    const histogram = new LatencyHistogram();
    for (let micros = 1; micros <= 10_000; micros++) histogram.record(micros);
    expect(histogram.count).toBe(10_000);
    expect(histogram.sum).toBe((10_000 * 10_001) / 2);
    for (const [q, exact] of [[0.5, 5000], [0.95, 9500], [0.99, 9900]]) {
      const estimate = histogram.quantile(q)!;
      expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.1);
    }
    expect(new LatencyHistogram().quantile(0.5)).toBeNull();
  });

  it('merges by addition: two halves, sparse or dense, in either order, equal the whole', () => {
    const whole = new LatencyHistogram();
    const first = new LatencyHistogram();
    const second = new LatencyHistogram();
    for (let index = 0; index < 2000; index++) {
      const micros = 50 + ((index * 7919) % 90_000);
      whole.record(micros);
      (index % 3 === 0 ? first : second).record(micros);
    }
    const dense = new LatencyHistogram();
    dense.add(second);
    dense.add(first);
    const sparse = mergeSparse([first.toSparse(), second.toSparse()]);
    for (const merged of [dense, sparse]) {
      expect(Array.from(merged.counts)).toEqual(Array.from(whole.counts));
      expect(merged.count).toBe(whole.count);
      expect(merged.sum).toBeCloseTo(whole.sum, 6);
      expect(merged.quantile(0.99)).toBe(whole.quantile(0.99));
    }
  });

  it('travels sparse: only the buckets that hold something, and back to the same counts', () => {
    const histogram = new LatencyHistogram();
    histogram.record(300);
    histogram.record(300);
    histogram.record(4200);
    const sparse = histogram.toSparse();
    expect(sparse.buckets).toEqual([bucketIndex(300), 2, bucketIndex(4200), 1]);
    expect(Array.from(mergeSparse([JSON.parse(JSON.stringify(sparse))]).counts)).toEqual(Array.from(histogram.counts));
  });

  it('makes every Prometheus bound of /metrics a bucket edge, so its cumulative counts are exact', () => {
    const indexes = DURATION_BUCKETS.map((seconds) => edgeIndex(Math.round(seconds * 1e6)));
    const histogram = new LatencyHistogram();
    const recorded = [90, 100, 101, 250, 999, 1000, 1001, 2_500_000, 20_000_000];
    for (const micros of recorded) histogram.record(micros);
    const cumulative = histogram.cumulativeCounts(indexes);
    DURATION_BUCKETS.forEach((seconds, index) => {
      expect(cumulative[index]).toBe(recorded.filter((micros) => micros <= seconds * 1e6).length);
    });
    expect(() => edgeIndex(333)).toThrow('not a bucket edge');
  });
});
