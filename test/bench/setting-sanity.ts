/**
 * Whether a sweep moves fill the way its settings' names say (issue 26, "sane under every setting"): at the same
 * service level and deliveries, a shorter review never fills more than a point worse than a longer one; at the same
 * review and deliveries, a higher service level never fills worse. Each check gives its worst pair.
 */

/** A sweep point's settings and fill; `deliveryEveryDays` 0 delivers at every review. */
export interface SweepFill {
  serviceLevel: number;
  reviewPeriodDays: number;
  deliveryEveryDays: number;
  fill: number;
}

export interface Breach {
  /** How much worse the point fills than the one it is held against (fill, 0.01 a point). */
  drop: number;
  point: SweepFill;
  against: SweepFill;
}

/**
 * Whether `a` and `b` deliver alike: the same deliveries, or `b` a review as long as `a`'s deliveries that delivers
 * at every review (a weekly review is weekly deliveries).
 */
const deliverAlike = (a: SweepFill, b: SweepFill) =>
  a.deliveryEveryDays === b.deliveryEveryDays ||
  (a.deliveryEveryDays > 0 && b.deliveryEveryDays === 0 && b.reviewPeriodDays === a.deliveryEveryDays);

function worst(points: SweepFill[], comparable: (a: SweepFill, b: SweepFill) => boolean): Breach | undefined {
  let found: Breach | undefined;
  for (const point of points)
    for (const against of points) {
      if (!comparable(point, against)) continue;
      const drop = against.fill - point.fill;
      if (!found || drop > found.drop) found = { drop, point, against };
    }
  return found;
}

/** The worst shorter review (against a longer one) and the worst higher service level (against a lower one). */
export function settingSanity(points: SweepFill[]): { review?: Breach; service?: Breach } {
  return {
    review: worst(
      points,
      (a, b) => a.serviceLevel === b.serviceLevel && a.reviewPeriodDays < b.reviewPeriodDays && deliverAlike(a, b),
    ),
    service: worst(
      points,
      (a, b) =>
        a.reviewPeriodDays === b.reviewPeriodDays &&
        a.deliveryEveryDays === b.deliveryEveryDays &&
        a.serviceLevel > b.serviceLevel,
    ),
  };
}
