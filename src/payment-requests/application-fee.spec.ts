import { feeStillDue } from './application-fee';

describe('feeStillDue (a payment made by hand lowers what is due)', () => {
  it('is the fee pro rata of what is still due, rounded half up', () => {
    expect(feeStillDue(500, 1000, 400)).toBe(200);
    expect(feeStillDue(500, 1000, 667)).toBe(334); // 333.5
    expect(feeStillDue(334, 667, 333)).toBe(167); // 166.75
    expect(feeStillDue(500, 1000, 1)).toBe(1); // 0.5
    expect(feeStillDue(499, 1000, 1)).toBe(0); // 0.499
    expect(feeStillDue(3, 7, 5)).toBe(2); // 2.14
  });

  it('is never above what is still due, nor below 0', () => {
    for (const [fee, due] of [
      [1000, 1000],
      [999, 1000],
      [1, 3],
      [0, 10],
    ])
      for (let after = 0; after <= due; after += 1) {
        const left = feeStillDue(fee, due, after)!;
        expect(left).toBeGreaterThanOrEqual(0);
        expect(left).toBeLessThanOrEqual(after);
      }
  });

  it('keeps no fee null and an unchanged amount’s fee whole; exact on the largest amounts', () => {
    expect(feeStillDue(null, 1000, 400)).toBeNull();
    expect(feeStillDue(250, 1000, 1000)).toBe(250);
    // 99,999,999 × 99,999,998 is past 2^53: still exact.
    expect(feeStillDue(99_999_999, 100_000_000, 99_999_998)).toBe(99_999_997);
  });
});
