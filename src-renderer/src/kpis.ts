/** The KPIs the screens show, in order, with how each reads (common/format.ts: the command line's format too). */
import type { SideKpis } from '../../common/api-types';
import { figureOf, isRate, KPIS as ALL, type Better, type KpiUnit } from '../../common/kpis';
import { money, percent, points, signed, weeks, whole } from '../../common/format';

export interface Kpi {
  key: string;
  label: string;
  /** What the figure counts, in a sentence: the card's explanation on screen. */
  explains: string;
  pick: (k: SideKpis) => number | null;
  format: (v: number) => string;
  /** A rate: two of them differ in percentage points. */
  rate?: boolean;
  /** Which way is better, the service being equal: more in stock and sold, fewer stock-outs, less stock held. */
  better: Better;
}

/** How a figure of each unit reads on screen. */
const FORMAT: Record<KpiUnit, (v: number) => string> = {
  days: whole,
  units: whole,
  rate: (v) => percent(v),
  money: (v) => money(v),
  weeks,
};

/** The registry's cards (common/kpis.ts), in their order. */
export const KPIS: Kpi[] = ALL.filter((k) => k.card !== undefined)
  .sort((a, b) => a.card! - b.card!)
  .map((k) => ({
    key: k.key,
    label: k.cardLabel,
    explains: k.explains,
    pick: (side: SideKpis) => figureOf(k, side),
    format: FORMAT[k.unit],
    rate: isRate(k),
    better: k.better,
  }));

/** A value as its KPI reads, or a dash where there is none (no carried day, no demand, no sales). */
export const show = (kpi: Kpi, k: SideKpis) => {
  const v = kpi.pick(k);
  return v === null ? '–' : kpi.format(v);
};

/** b − a as it reads: a rate's in percentage points (`d` given in points, as the comparison gives it). */
export function difference(kpi: Kpi, d: number | null | undefined): string {
  if (d === null || d === undefined) return '–';
  return kpi.rate ? points(d / 100) : signed(d, kpi.format);
}

/**
 * The engine's figure against the actual one: the difference as it reads (rates in points), and whether it is
 * better, worse or the same; none where either side has no figure.
 */
export function versusActual(
  kpi: Kpi,
  simulated: SideKpis,
  actual: SideKpis,
): { text: string; tone: 'better' | 'worse' | 'same' } | undefined {
  const [s, a] = [kpi.pick(simulated), kpi.pick(actual)];
  if (s === null || a === null) return undefined;
  const d = s - a;
  const text = kpi.rate ? points(d) : signed(d, kpi.format);
  if (text.startsWith('±')) return { text, tone: 'same' };
  return { text, tone: d > 0 === (kpi.better === 'higher') ? 'better' : 'worse' };
}
