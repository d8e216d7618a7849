/**
 * ISO 8601 datetimes as the spec uses them: `YYYY-MM-DDThh:mm[:ss[.fraction]][Z|±hh:mm]`, or a bare date.
 * A value without a zone is read as UTC, since the spec says every datetime is UTC.
 * Parsed to microseconds since the epoch, DuckDB's TIMESTAMP unit.
 */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** The number written by `length` digits of `text` at `at`, or NaN. */
function digits(text: string, at: number, length: number): number {
  let n = 0;
  for (let i = at; i < at + length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

/**
 * `YYYY-MM-DDThh:mm:ss.sssZ`, the form JSON serializers write (`Date.prototype.toISOString`), read digit by digit:
 * most datetimes sent, each checked and read twice per batch. Undefined for anything else, which the pattern reads.
 */
function canonicalMicros(text: string): number | undefined {
  if (
    text.length !== 24 ||
    text[4] !== '-' ||
    text[7] !== '-' ||
    text[10] !== 'T' ||
    text[13] !== ':' ||
    text[16] !== ':' ||
    text[19] !== '.' ||
    text[23] !== 'Z'
  )
    return undefined;
  const y = digits(text, 0, 4),
    mo = digits(text, 5, 2),
    d = digits(text, 8, 2),
    h = digits(text, 11, 2),
    mi = digits(text, 14, 2),
    s = digits(text, 17, 2),
    ms = digits(text, 20, 3);
  // Years below 100 (Date.UTC reads them as 19xx), the hour 24 and anything not a date are left to the pattern.
  if (!(y >= 100 && mo >= 1 && mo <= 12 && d >= 1 && h <= 23 && mi <= 59 && s <= 59 && ms >= 0)) return undefined;
  if (d > (mo === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[mo - 1])) return undefined;
  return (Date.UTC(y, mo - 1, d, h, mi, s) + ms) * 1000;
}

/** Microseconds since 1970-01-01T00:00:00Z, or undefined when the text is not an ISO 8601 datetime. */
export function parseIsoMicros(text: string): number | undefined {
  const canonical = canonicalMicros(text);
  if (canonical !== undefined) return canonical;
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, ys, mos, ds, hs, mis, ss, frac, zone] = m;
  const y = +ys,
    mo = +mos,
    d = +ds;
  const h = hs === undefined ? 0 : +hs,
    mi = mis === undefined ? 0 : +mis,
    s = ss === undefined ? 0 : +ss;
  if (mo < 1 || mo > 12) return undefined;
  const dim = mo === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[mo - 1];
  if (d < 1 || d > dim || h > 24 || mi > 59 || s > 59) return undefined;
  if (h === 24 && (mi !== 0 || s !== 0 || (frac !== undefined && /[1-9]/.test(frac)))) return undefined;
  if (zone !== undefined && hs === undefined) return undefined; // a zone needs a time
  let offsetMinutes = 0;
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = +digits.slice(0, 2),
      om = digits.length > 2 ? +digits.slice(2) : 0;
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = sign * (oh * 60 + om);
  }
  // Date.UTC reads years 0–99 as 1900–1999: the day's midnight with the full year set, then the time of day (so
  // 24:00 is the next day's midnight, as ISO 8601 has it).
  const date = new Date(Date.UTC(2000, mo - 1, d));
  date.setUTCFullYear(y, mo - 1, d);
  const ms = date.getTime() + ((h * 60 + mi) * 60 + s) * 1000 - offsetMinutes * 60_000;
  if (!Number.isFinite(ms)) return undefined;
  const micros = frac === undefined ? 0 : Math.floor(+(frac + '000000').slice(0, 6));
  return ms * 1000 + micros;
}

export function isIsoDateTime(text: string): boolean {
  return parseIsoMicros(text) !== undefined;
}

/** The canonical UTC text of a stored timestamp: milliseconds, or microseconds when they carry information. */
export function formatIsoMicros(micros: number | bigint): string {
  const n = typeof micros === 'bigint' ? micros : BigInt(Math.round(micros));
  const ms = n / 1000n - (n % 1000n < 0n ? 1n : 0n);
  const rest = Number(n - ms * 1000n);
  const iso = new Date(Number(ms)).toISOString();
  return rest === 0 ? iso : iso.replace('Z', String(rest).padStart(3, '0') + 'Z');
}

/** `YYYY-MM-DD` of a UTC instant. */
export function isoDate(micros: number): string {
  return new Date(Math.floor(micros / 1000)).toISOString().slice(0, 10);
}

/** Microseconds in a day: days since 1970-01-01 are the engine's calendar. */
export const DAY_MICROS = 86_400_000_000;

/** The day (since 1970-01-01, UTC) of an instant in microseconds. */
export function dayOf(micros: number): number {
  return Math.floor(micros / DAY_MICROS);
}

/** `YYYY-MM-DD` of a day number. */
export function dayText(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** The day number of a `YYYY-MM-DD` date, or undefined when the text is not one. */
export function parseDay(text: string): number | undefined {
  const micros = /^\d{4}-\d{2}-\d{2}$/.test(text) ? parseIsoMicros(text) : undefined;
  return micros === undefined ? undefined : dayOf(micros);
}
