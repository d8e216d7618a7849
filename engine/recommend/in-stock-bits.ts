/**
 * Which days of a cell's sales ring held stock, one bit per slot: what the reviews ask of the ring most often
 * (which days any size of a style had stock, how many days of a stretch a cell had) read from a few words a cell
 * instead of the whole ring. A replay keeps them with the ring as it writes it (serve-day.ts); a state without them
 * is read from the ring itself, to the same answer.
 */

/** Words of 32 bits a cell's window of `windowDays` slots takes. */
export const bitWords = (windowDays: number): number => (windowDays + 31) >>> 5;

/** The bits of every cell of a sales ring: slot d of cell c set where the ring holds a number (in stock). */
export function inStockBitsOf(sales: Float32Array, windowDays: number): Uint32Array {
  const words = bitWords(windowDays);
  const cells = windowDays > 0 ? sales.length / windowDays : 0;
  const bits = new Uint32Array(cells * words);
  for (let c = 0; c < cells; c++) {
    const base = c * windowDays;
    for (let d = 0; d < windowDays; d++) {
      const x = sales[base + d];
      if (x === x) bits[c * words + (d >>> 5)] |= 1 << (d & 31);
    }
  }
  return bits;
}

/** Sets (in stock) or clears slot `slot` of cell c. */
export function setSlot(bits: Uint32Array, words: number, c: number, slot: number, inStock: boolean): void {
  const w = c * words + (slot >>> 5);
  const m = 1 << (slot & 31);
  bits[w] = inStock ? bits[w] | m : bits[w] & ~m;
}

/**
 * Sets or clears the ring's slots from `from` on, `to − from` of them (at most the whole ring: past its last slot
 * they go on from slot 0), of cell c of a `windowDays`-slot ring.
 */
export function setSlots(
  bits: Uint32Array,
  windowDays: number,
  c: number,
  from: number,
  to: number,
  inStock: boolean,
): void {
  const base = c * bitWords(windowDays);
  setRun(bits, base, from, Math.min(to, windowDays), inStock);
  if (to > windowDays) setRun(bits, base, 0, to - windowDays, inStock);
}

/** Set bits among the same slots as setSlots takes. */
export function countSlots(bits: Uint32Array, windowDays: number, c: number, from: number, to: number): number {
  const base = c * bitWords(windowDays);
  return (
    countRun(bits, base, from, Math.min(to, windowDays)) +
    (to > windowDays ? countRun(bits, base, 0, to - windowDays) : 0)
  );
}

/** Slots [from, to) of the words from `base` on, a word at a time (a replay's catch-up sets a few days a cell). */
function setRun(bits: Uint32Array, base: number, from: number, to: number, inStock: boolean): void {
  for (let s = from; s < to;) {
    const lo = s & 31;
    const hi = Math.min(32, lo + (to - s));
    const w = base + (s >>> 5);
    const m = bitsBetween(lo, hi);
    bits[w] = inStock ? bits[w] | m : bits[w] & ~m;
    s += hi - lo;
  }
}

function countRun(bits: Uint32Array, base: number, from: number, to: number): number {
  let n = 0;
  for (let s = from; s < to;) {
    const lo = s & 31;
    const hi = Math.min(32, lo + (to - s));
    n += popcount(bits[base + (s >>> 5)] & bitsBetween(lo, hi));
    s += hi - lo;
  }
  return n;
}

/** A word's bits [lo, hi), 0 ≤ lo < hi ≤ 32. */
function bitsBetween(lo: number, hi: number): number {
  return hi === 32 ? (~0 << lo) >>> 0 : (((1 << hi) - 1) & ~((1 << lo) - 1)) >>> 0;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
