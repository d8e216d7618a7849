import { describe, expect, it } from 'vitest';
import { settingSanity, type SweepFill } from './bench/setting-sanity.js';

const p = (serviceLevel: number, reviewPeriodDays: number, deliveryEveryDays: number, fill: number): SweepFill => ({
  serviceLevel,
  reviewPeriodDays,
  deliveryEveryDays,
  fill,
});

describe("bench:decisions' check of a sweep's settings", () => {
  it('holds a shorter review against longer ones delivering alike, weekly deliveries against a weekly review', () => {
    const { review } = settingSanity([
      p(0.9, 7, 0, 0.85),
      p(0.9, 5, 7, 0.83),
      p(0.9, 1, 7, 0.86),
      p(0.9, 5, 0, 0.8), // every five days: held against no longer review delivering every review but the weekly one
      p(0.8, 1, 7, 0.5), // another service level: held against nothing of 0.9
    ]);
    expect(review?.point).toEqual(p(0.9, 5, 0, 0.8));
    expect(review?.against).toEqual(p(0.9, 7, 0, 0.85));
    expect(review?.drop).toBeCloseTo(0.05, 12);
  });

  it('holds a higher service level against the lower ones at the same review and deliveries', () => {
    const { service } = settingSanity([p(0.7, 3, 0, 0.8), p(0.9, 3, 0, 0.79), p(0.9, 3, 7, 0.6), p(0.95, 3, 0, 0.82)]);
    expect(service?.point).toEqual(p(0.9, 3, 0, 0.79));
    expect(service?.against).toEqual(p(0.7, 3, 0, 0.8));
    expect(service?.drop).toBeCloseTo(0.01, 12);
  });
});
