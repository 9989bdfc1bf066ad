import { describe, expect, it } from 'vitest';
import { bucketQuantile } from '../../bench/router/testbed';

// router.py's histograms (queue waits, its own lateness): counts per bucket, read as the upper edge of the bucket a
// quantile falls in.
describe('bucketQuantile', () => {
  it('reads a quantile as the upper edge of its bucket, the largest as the last bucket holding any', () => {
    const counts = [5, 3, 0, 2, 0];
    expect(bucketQuantile(counts, 0.25, 0.5)).toBe(0.25);
    expect(bucketQuantile(counts, 0.25, 0.6)).toBe(0.5);
    expect(bucketQuantile(counts, 5, 0.95)).toBe(20);
    expect(bucketQuantile(counts, 5, 1)).toBe(20);
  });

  it('has no quantile of an empty histogram', () => {
    expect(bucketQuantile([0, 0, 0], 5, 0.5)).toBeUndefined();
    expect(bucketQuantile([], 5, 0.5)).toBeUndefined();
  });
});
