/**
 * A figure measured over several seeds of the same generated retailer, told by its median and its worst: a goal
 * holds only when it holds on the worst seed.
 */

/** The middle value (the mean of the two middle ones for an even count). */
export function median(xs: number[]): number {
  if (xs.length === 0) throw new Error('the median of no values');
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The value farthest from 0, sign kept: an error's worst case either way. */
export function worst(xs: number[]): number {
  if (xs.length === 0) throw new Error('the worst of no values');
  return xs.reduce((w, x) => (Math.abs(x) > Math.abs(w) ? x : w));
}

/** Seeds from a list such as "1,2,5" or a range "1-8"; `fallback` when the list is unset. */
export function pickedSeeds(list: string | undefined, fallback: number[]): number[] {
  if (list === undefined || list.trim() === '') return fallback;
  const seeds: number[] = [];
  for (const part of list.split(',').map((p) => p.trim())) {
    const range = /^(\d+)-(\d+)$/.exec(part);
    const [from, to] = range ? [Number(range[1]), Number(range[2])] : [Number(part), Number(part)];
    if (!/^\d+(-\d+)?$/.test(part) || from < 1 || to < from)
      throw new Error(`seeds "${list}": "${part}" is not a seed (a whole number from 1) or a range such as 1-8`);
    for (let s = from; s <= to; s++) seeds.push(s);
  }
  return seeds;
}
