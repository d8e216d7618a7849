/**
 * Demand per SKU×location from its in-stock days only: a day without stock says nothing about demand
 * (censored), so it is left out rather than counted as zero. Series are classified by ADI/CV² (Syntetos
 * and Boylan); intermittent ones are estimated with SBA, lumpy ones with TSB, the others with the mean.
 */
export type DemandClass = 'smooth' | 'erratic' | 'intermittent' | 'lumpy' | 'none';

export interface OwnEstimate {
  /** Units per day. */
  rate: number;
  /** Standard deviation of daily demand. */
  sd: number;
  inStockDays: number;
  units: number;
  /** Average inter-demand interval over in-stock days. */
  adi: number;
  /** Squared coefficient of variation of the non-zero demand sizes. */
  cv2: number;
  demandClass: DemandClass;
  method: 'mean' | 'sba' | 'tsb' | 'none';
}

/** Syntetos–Boylan cut-offs. */
export const ADI_CUTOFF = 1.32;
export const CV2_CUTOFF = 0.49;
const ALPHA = 0.1;
const BETA = 0.1;

export function classify(adi: number, cv2: number): DemandClass {
  if (!Number.isFinite(adi)) return 'none';
  if (adi < ADI_CUTOFF) return cv2 < CV2_CUTOFF ? 'smooth' : 'erratic';
  return cv2 < CV2_CUTOFF ? 'intermittent' : 'lumpy';
}

/** Croston with the Syntetos–Boylan bias correction, over the in-stock days in order. */
export function sba(days: readonly number[]): number {
  let z = NaN;
  let p = NaN;
  let q = 1;
  for (const d of days) {
    if (d > 0) {
      z = Number.isNaN(z) ? d : z + ALPHA * (d - z);
      p = Number.isNaN(p) ? q : p + ALPHA * (q - p);
      q = 1;
    } else {
      q++;
    }
  }
  return Number.isNaN(z) ? 0 : (1 - ALPHA / 2) * (z / p);
}

/** Teunter–Syntetos–Babai: demand probability updated every day, so a dying item fades out. */
export function tsb(days: readonly number[]): number {
  let z = NaN;
  let prob = NaN;
  for (const d of days) {
    if (Number.isNaN(prob)) {
      prob = d > 0 ? 1 : 0;
      if (d > 0) z = d;
      continue;
    }
    prob += BETA * ((d > 0 ? 1 : 0) - prob);
    if (d > 0) z = Number.isNaN(z) ? d : z + ALPHA * (d - z);
  }
  return Number.isNaN(z) ? 0 : prob * z;
}

/** The estimate from one SKU×location's own window: `sales[offset + (head + d) % windowDays]`, oldest day first. */
export function ownEstimate(
  sales: Float32Array,
  inStock: Uint8Array,
  offset: number,
  windowDays: number,
  head = 0,
): OwnEstimate {
  const days: number[] = [];
  let units = 0;
  let nonZero = 0;
  let sumSq = 0;
  let sizeSum = 0;
  let sizeSq = 0;
  for (let i = 0; i < windowDays; i++) {
    const d = head + i < windowDays ? head + i : head + i - windowDays;
    if (!inStock[offset + d]) continue;
    const x = sales[offset + d];
    days.push(x);
    units += x;
    sumSq += x * x;
    if (x > 0) {
      nonZero++;
      sizeSum += x;
      sizeSq += x * x;
    }
  }
  const n = days.length;
  if (n === 0)
    return { rate: 0, sd: 0, inStockDays: 0, units: 0, adi: Infinity, cv2: 0, demandClass: 'none', method: 'none' };
  const mean = units / n;
  const sd = Math.sqrt(Math.max(0, sumSq / n - mean * mean));
  const adi = nonZero ? n / nonZero : Infinity;
  const sizeMean = nonZero ? sizeSum / nonZero : 0;
  const cv2 =
    nonZero > 1 && sizeMean > 0 ? Math.max(0, sizeSq / nonZero - sizeMean * sizeMean) / (sizeMean * sizeMean) : 0;
  const demandClass = nonZero ? classify(adi, cv2) : 'none';
  if (demandClass === 'intermittent')
    return { rate: sba(days), sd, inStockDays: n, units, adi, cv2, demandClass, method: 'sba' };
  if (demandClass === 'lumpy')
    return { rate: tsb(days), sd, inStockDays: n, units, adi, cv2, demandClass, method: 'tsb' };
  return { rate: mean, sd, inStockDays: n, units, adi, cv2, demandClass, method: nonZero ? 'mean' : 'none' };
}

/**
 * Shrinks a thin own estimate towards a pooled one (style × size curve, category, network): the own history
 * weighs n / (n + halfWeightDays) for n in-stock days.
 */
export function blend(own: OwnEstimate, pooledRate: number, halfWeightDays: number): { rate: number; weight: number } {
  const weight = own.inStockDays / (own.inStockDays + halfWeightDays);
  return { rate: weight * own.rate + (1 - weight) * pooledRate, weight };
}
