/**
 * The trade-off a sweep shows: each run a point of lost sales against average store stock, the points no other
 * beats on both (the efficient frontier), and the point a stated constraint picks. Pure: the runs' figures in,
 * marks out.
 */

/** One run of a sweep as the frontier reads it: what it lost and what it held (and what it cost in trips). */
export interface FrontierPoint {
  lostSales: number;
  fillRate: number | null;
  inventoryUnits: number;
  /** Null without cost prices (see SideKpis). */
  inventoryValue: number | null;
  trips: number;
}

/**
 * Which points are on the frontier: no other point has less (or equal) lost sales and less (or equal) stock with
 * one of them strictly less. Equal points are both on it.
 */
export function onFrontier(points: readonly FrontierPoint[]): boolean[] {
  return points.map(
    (p) =>
      !points.some(
        (q) =>
          q !== p &&
          q.lostSales <= p.lostSales &&
          q.inventoryUnits <= p.inventoryUnits &&
          (q.lostSales < p.lostSales || q.inventoryUnits < p.inventoryUnits),
      ),
  );
}

/**
 * What a user asks of a setting: a fill rate at least this high (the cheapest point in stock that meets it), or
 * store stock no higher than this (the point that loses least within it); `actual` is the history's own stock.
 */
export type FrontierConstraint = { fillRateAtLeast: number } | { inventoryAtMost: number | 'actual' };

/** The index of the point the constraint picks, or undefined when none meets it. Ties go to fewer trips. */
export function recommendedPoint(
  points: readonly FrontierPoint[],
  constraint: FrontierConstraint,
  actual: FrontierPoint,
): number | undefined {
  let best: number | undefined;
  const better = (a: FrontierPoint, b: FrontierPoint, key: 'inventoryUnits' | 'lostSales') =>
    a[key] < b[key] || (a[key] === b[key] && a.trips < b.trips);
  points.forEach((p, i) => {
    if ('fillRateAtLeast' in constraint) {
      if (p.fillRate === null || p.fillRate < constraint.fillRateAtLeast) return;
      if (best === undefined || better(p, points[best], 'inventoryUnits')) best = i;
    } else {
      const most = constraint.inventoryAtMost === 'actual' ? actual.inventoryUnits : constraint.inventoryAtMost;
      if (p.inventoryUnits > most) return;
      if (best === undefined || better(p, points[best], 'lostSales')) best = i;
    }
  });
  return best;
}
