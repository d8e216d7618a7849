/**
 * How the workbench writes its figures, one way on every screen and in the command line: counts and units whole,
 * rates in %, differences of rates in percentage points, values with the workspace's currency, a count with its
 * noun in the right number. Plain TypeScript with neither Node nor the DOM: the renderer bundles it and the command
 * line imports it (docs/design.md §1.4).
 */

/** The minus of a difference: as wide as its plus, so a column of differences lines up. */
export const MINUS = '\u2212';

const LOCALE = 'en';

/** `v` with at most `digits` decimals (none shown when they are zeros) and thousands separated: 1,310.5. */
export function decimal(v: number, digits = 1): string {
  const text = Math.abs(v).toLocaleString(LOCALE, { maximumFractionDigits: digits });
  // A value that rounds to zero is no negative zero.
  return v < 0 && /[1-9]/.test(text) ? `-${text}` : text;
}

/** A count or a quantity of units, whole: 1,310. Units are whole in the data; averages and estimates round. */
export const whole = (v: number): string => decimal(v, 0);

/** A count with its noun: "1 record", "2,048 records", "1 batch", "3 batches". */
export function count(n: number, noun: string, plural = /(s|sh|ch|x)$/.test(noun) ? `${noun}es` : `${noun}s`): string {
  return `${whole(n)} ${n === 1 ? noun : plural}`;
}

/** A rate (a share of 1) in percent: 0.8623 → "86.2%". */
export function percent(rate: number, digits = 1): string {
  return `${(rate * 100).toFixed(digits)}%`;
}

/** A value in the workspace's currency (its code after the figure, whole): "386,613 LOCAL"; bare without one. */
export function money(v: number, currency?: string): string {
  return currency ? `${whole(v)} ${currency}` : whole(v);
}

/** Weeks of cover, to a tenth: "2.3". */
export const weeks = (v: number): string => decimal(v, 1);

/**
 * A difference as its figure reads, signed: "+177", "−974", and "±0" when it rounds to nothing in that format
 * (`format` writes the size; `whole` unless told).
 */
export function signed(d: number, format: (v: number) => string = whole): string {
  const size = format(Math.abs(d));
  if (!/[1-9]/.test(size)) return `±${size}`;
  return `${d > 0 ? '+' : MINUS}${size}`;
}

/** The difference of two rates (each a share of 1) in percentage points: 0.0235 → "+2.4 pp". */
export function points(d: number, digits = 1): string {
  return `${signed(d * 100, (v) => v.toFixed(digits))} pp`;
}

/** How long something took: "250 ms" under a second, else "3.2 s". */
export function duration(ms: number): string {
  return ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A rate per second, whole: "16,713 records/s". */
export function perSecond(n: number, seconds: number, noun: string): string {
  return `${whole(seconds > 0 ? n / seconds : n)} ${noun}/s`;
}
