import type { StyleDaySeries } from '../../common/api-types';

/**
 * The days of the run the style lived in: from the first to the last day anything happened to it (carried, sold,
 * received or moved by the engine), so its charts are not mostly empty for a style launched late or sold out early.
 */
export function sellingLife(d: StyleDaySeries): StyleDaySeries {
  const s = d.series;
  const alive = d.dates.map(
    (_, i) =>
      s.carriedDays[i] > 0 ||
      s.simSales[i] > 0 ||
      s.actSales[i] > 0 ||
      s.receipts[i] !== 0 ||
      s.simTransfersIn[i] > 0 ||
      s.simTransfersOut[i] > 0,
  );
  const first = alive.indexOf(true);
  const last = alive.lastIndexOf(true);
  if (first < 0 || (first === 0 && last === d.dates.length - 1)) return d;
  const cut = <T>(xs: T[]) => xs.slice(first, last + 1);
  return {
    ...d,
    dates: cut(d.dates),
    series: Object.fromEntries(Object.entries(s).map(([k, v]) => [k, cut(v)])) as StyleDaySeries['series'],
  };
}
