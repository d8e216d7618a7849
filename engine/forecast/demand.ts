/**
 * Demand per SKU×location from its in-stock days only: a day without stock says nothing about demand
 * (censored), so it is left out rather than counted as zero. A day that sold out says demand was at least what
 * it sold (the window holds it negated, see EngineState.sales): its demand is taken as the expected demand beyond
 * that bound (imputeSoldOut). Series are classified by ADI/CV² (Syntetos and Boylan); intermittent ones are
 * estimated with SBA, lumpy ones with TSB, the others with the mean.
 */
import { poissonTail } from './poisson.js';
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

export const CLASSES: DemandClass[] = ['none', 'smooth', 'erratic', 'intermittent', 'lumpy'];
const [NONE, SMOOTH, ERRATIC, INTERMITTENT, LUMPY] = [0, 1, 2, 3, 4];

/** The class's place in CLASSES: the forecast classifies every selling cell, so it compares numbers, not words. */
function classIndex(adi: number, cv2: number): number {
  if (!Number.isFinite(adi)) return NONE;
  if (adi < ADI_CUTOFF) return cv2 < CV2_CUTOFF ? SMOOTH : ERRATIC;
  return cv2 < CV2_CUTOFF ? INTERMITTENT : LUMPY;
}

export const classify = (adi: number, cv2: number): DemandClass => CLASSES[classIndex(adi, cv2)];

/*
 * The references the forecast's one-pass reading (ownStats) is tested against: each reads a cell's in-stock days'
 * sales, oldest first.
 */

/** Croston with the Syntetos–Boylan bias correction. */
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

const METHODS: OwnEstimate['method'][] = ['none', 'mean', 'sba', 'tsb'];
/** Where ownStats writes: a scratch array the caller reuses, so a million cells allocate nothing. */
export const OWN = {
  rate: 0,
  sd: 1,
  inStockDays: 2,
  units: 3,
  adi: 4,
  cv2: 5,
  demandClass: 6,
  method: 7,
  weightedDays: 8,
  weightedUnits: 9,
  saleDays: 10,
} as const;
export const OWN_FIELDS = 11;

/**
 * Weights of a window's days, oldest first: a day `age` days before the newest weighs 2^(−age / halfLife), so the
 * estimate follows a style's launch, its decline and its markdown within weeks rather than a whole window. A half
 * life of 0 weighs every day alike. Kept per window and half life: every cell of a review reads the same.
 */
let weightsOf = { days: 0, halfLife: -1, w: new Float64Array(0) };
export function dayWeights(days: number, halfLife: number): Float64Array {
  if (weightsOf.days !== days || weightsOf.halfLife !== halfLife) {
    const w = new Float64Array(days);
    for (let p = 0; p < days; p++) w[p] = halfLife > 0 ? 2 ** (-(days - 1 - p) / halfLife) : 1;
    weightsOf = { days, halfLife, w };
  }
  return weightsOf.w;
}

/** The days that sold of a window being read: their place among its in-stock days, what they sold, their weight. */
let eventAt = new Int32Array(64);
let eventSize = new Float64Array(64);
let eventWeight = new Float64Array(64);
/** Per such day: 1 when it sold out (its size is a lower bound of its demand). */
let eventSoldOut = new Uint8Array(64);

/**
 * Rounds of the sold-out days' imputation. Each round takes a sold-out day's demand as E[D | D ≥ sold] under the
 * rate the round before gave. A cell that sold out on every in-stock day has no day to hold its rate down (its
 * likelihood grows without end), so the rounds are few: its estimate rises by a bounded step a review, the engine
 * sends more, and the days that stop selling out settle it.
 */
export const SOLD_OUT_ROUNDS = 3;

/** E[D | D ≥ x] for D ~ Poisson(rate): the demand of a day that sold out after selling x. */
export function demandBeyond(rate: number, x: number): number {
  if (rate <= 0) return x;
  const atLeast = poissonTail(rate, x);
  // Far in the tail the ratio below is 0 / 0: the bound is then all that is known.
  if (atLeast < 1e-12) return x + 1;
  return Math.max(x, (rate * poissonTail(rate, x - 1)) / atLeast);
}

/** Replaces the sold-out days' sizes (lower bounds) by their expected demand; `n` in-stock days, `m` days that sold. */
function imputeSoldOut(n: number, m: number, bounds: Float64Array): void {
  let sum = 0;
  for (let e = 0; e < m; e++) {
    if (eventSoldOut[e]) bounds[e] = eventSize[e];
    sum += eventSize[e];
  }
  for (let round = 0; round < SOLD_OUT_ROUNDS; round++) {
    const rate = sum / n;
    sum = 0;
    for (let e = 0; e < m; e++) {
      if (eventSoldOut[e]) eventSize[e] = demandBeyond(rate, bounds[e]);
      sum += eventSize[e];
    }
  }
}
let bounds = new Float64Array(64);

/**
 * ownEstimate's figures, written into `out` (see OWN): the form the forecast reads for every cell. Most cells sell
 * on a few of their days (at the stores a size sells a unit a week or so), so the window is read once for its
 * in-stock days and the days that sold, and everything else is worked out from those: the moments, and SBA and
 * TSB step for step as sba and tsb take them (a day that sold nothing moves TSB's probability alone). One
 * function, as the one read of the window is its point: it runs for every cell at every review.
 */
export function ownStats(
  sales: Float32Array,
  offset: number,
  windowDays: number,
  head: number,
  out: Float64Array,
  weights: Float64Array = dayWeights(windowDays, 0),
  skip?: Uint8Array,
): void {
  if (eventAt.length < windowDays) {
    eventAt = new Int32Array(windowDays);
    eventSize = new Float64Array(windowDays);
    eventWeight = new Float64Array(windowDays);
    eventSoldOut = new Uint8Array(windowDays);
    bounds = new Float64Array(windowDays);
  }
  let n = 0;
  let m = 0;
  let soldOut = 0;
  let weightedDays = 0;
  let pos = 0;
  // The ring oldest day first: slots head … end, then 0 … head − 1.
  for (let part = 0; part < 2; part++) {
    const end = offset + (part === 0 ? windowDays : head);
    for (let at = offset + (part === 0 ? head : 0); at < end; at++, pos++) {
      const x = sales[at];
      // NaN: a day without stock; `skip`: a day sold at another price than today's (price-regime.ts).
      if (x !== x || (skip && skip[pos])) continue;
      weightedDays += weights[pos];
      if (x > 0) {
        eventAt[m] = n;
        eventWeight[m] = weights[pos];
        eventSoldOut[m] = 0;
        eventSize[m++] = x;
      } else if (x < 0) {
        // Sold out: at least −x.
        eventAt[m] = n;
        eventWeight[m] = weights[pos];
        eventSoldOut[m] = 1;
        eventSize[m++] = -x;
        soldOut++;
      }
      n++;
    }
  }
  if (soldOut > 0) imputeSoldOut(n, m, bounds);
  out[OWN.inStockDays] = n;
  out[OWN.weightedDays] = weightedDays;
  let units = 0;
  let sumSq = 0;
  let weightedUnits = 0;
  let weightedSq = 0;
  for (let e = 0; e < m; e++) {
    units += eventSize[e];
    sumSq += eventSize[e] * eventSize[e];
    weightedUnits += eventWeight[e] * eventSize[e];
    weightedSq += eventWeight[e] * eventSize[e] * eventSize[e];
  }
  out[OWN.units] = units;
  out[OWN.weightedUnits] = weightedUnits;
  out[OWN.saleDays] = m;
  if (n === 0) {
    out[OWN.rate] = 0;
    out[OWN.sd] = 0;
    out[OWN.adi] = Infinity;
    out[OWN.cv2] = 0;
    out[OWN.demandClass] = 0;
    out[OWN.method] = 0;
    return;
  }
  // The level and spread of a smooth or erratic series weigh recent days more (dayWeights).
  const mean = weightedUnits / weightedDays;
  const adi = m ? n / m : Infinity;
  const sizeMean = m ? units / m : 0;
  const cv2 = m > 1 && sizeMean > 0 ? Math.max(0, sumSq / m - sizeMean * sizeMean) / (sizeMean * sizeMean) : 0;
  const demandClass = m ? classIndex(adi, cv2) : NONE;
  out[OWN.sd] = Math.sqrt(Math.max(0, weightedSq / weightedDays - mean * mean));
  out[OWN.adi] = adi;
  out[OWN.cv2] = cv2;
  out[OWN.demandClass] = demandClass;
  if (demandClass === INTERMITTENT) {
    // SBA: the sizes and the intervals (in in-stock days) between the days that sold, smoothed.
    let z = eventSize[0];
    let p = eventAt[0] + 1;
    for (let e = 1; e < m; e++) {
      z = z + ALPHA * (eventSize[e] - z);
      p = p + ALPHA * (eventAt[e] - eventAt[e - 1] - p);
    }
    out[OWN.rate] = (1 - ALPHA / 2) * (z / p);
    out[OWN.method] = 2;
  } else if (demandClass === LUMPY) {
    // TSB: the probability of a sale moves every in-stock day, towards 1 on a day that sold and 0 on one that did not.
    let z = eventSize[0];
    let prob = eventAt[0] === 0 ? 1 : 0;
    let day = 0;
    for (let e = 0; e < m; e++) {
      for (; day + 1 < eventAt[e]; day++) prob = prob + BETA * (0 - prob);
      if (eventAt[e] > 0) {
        prob = prob + BETA * (1 - prob);
        day = eventAt[e];
      }
      if (e > 0) z = z + ALPHA * (eventSize[e] - z);
    }
    for (; day + 1 < n; day++) prob = prob + BETA * (0 - prob);
    out[OWN.rate] = prob * z;
    out[OWN.method] = 3;
  } else {
    out[OWN.rate] = mean;
    out[OWN.method] = m ? 1 : 0;
  }
}

/**
 * The estimate from one SKU×location's own window: `sales[offset + (head + d) % windowDays]`, oldest day first, NaN
 * on a day without stock.
 */
export function ownEstimate(sales: Float32Array, offset: number, windowDays: number, head = 0): OwnEstimate {
  const out = new Float64Array(OWN_FIELDS);
  ownStats(sales, offset, windowDays, head, out);
  return {
    rate: out[OWN.rate],
    sd: out[OWN.sd],
    inStockDays: out[OWN.inStockDays],
    units: out[OWN.units],
    adi: out[OWN.adi],
    cv2: out[OWN.cv2],
    demandClass: CLASSES[out[OWN.demandClass]],
    method: METHODS[out[OWN.method]],
  };
}

/**
 * Shrinks a thin own estimate towards a pooled one (style × size curve, category, network): the own history
 * weighs n / (n + halfWeightDays) for n in-stock days.
 */
export function blend(own: OwnEstimate, pooledRate: number, halfWeightDays: number): { rate: number; weight: number } {
  return {
    rate: blendRate(own.rate, own.inStockDays, pooledRate, halfWeightDays),
    weight: ownWeight(own.inStockDays, halfWeightDays),
  };
}

/**
 * The weight of an own history of n in-stock days against the pooled estimate. No history weighs nothing, even
 * where a half-weight of 0 days lets any history weigh fully.
 */
export const ownWeight = (inStockDays: number, halfWeightDays: number): number =>
  inStockDays === 0 ? 0 : inStockDays / (inStockDays + halfWeightDays);

/** blend's rate alone, for a forecast of every cell. */
export function blendRate(ownRate: number, inStockDays: number, pooledRate: number, halfWeightDays: number): number {
  const weight = ownWeight(inStockDays, halfWeightDays);
  return weight * ownRate + (1 - weight) * pooledRate;
}
