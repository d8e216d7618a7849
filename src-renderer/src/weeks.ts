/** Daily series gathered into weeks, for the charts' weekly view. */
export interface Series {
  /** "simulated …" and "actual …" pair up by the rest of their names ("simulated sales" with "actual sales"). */
  name: string;
  /** One per date; null where the series has no such day. */
  values: (number | null)[];
}

/** Monday of a date's week, as YYYY-MM-DD. */
function weekOf(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/**
 * Days gathered into weeks (labelled by their Monday): a flow adds up over the week, a level (stock on hand, a rate)
 * is the week's mean; a week with no value stays empty.
 */
export function byWeek(dates: string[], series: Series[], levels: boolean): { dates: string[]; series: Series[] } {
  const weeks: string[] = [];
  const at: number[] = [];
  for (const d of dates) {
    const w = weekOf(d);
    if (weeks[weeks.length - 1] !== w) weeks.push(w);
    at.push(weeks.length - 1);
  }
  return {
    dates: weeks,
    series: series.map((s) => {
      const sum = new Array<number>(weeks.length).fill(0);
      const n = new Array<number>(weeks.length).fill(0);
      s.values.forEach((v, i) => {
        if (v === null) return;
        sum[at[i]] += v;
        n[at[i]]++;
      });
      return {
        name: s.name,
        values: sum.map((x, w) => (n[w] === 0 ? null : Math.round((levels ? x / n[w] : x) * 10) / 10)),
      };
    }),
  };
}
