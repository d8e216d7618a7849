/**
 * Day arithmetic on whole UTC days counted from the start date (day 0). Negative days are the warm-up before the
 * period; the generator simulates them so the shop is already stocked and selling on day 0.
 */
export const DAY_MS = 86_400_000;

const pad2 = (n: number) => (n < 10 ? '0' : '') + n;

/** Milliseconds of `YYYY-MM-DD` at 00:00 UTC, or undefined when it is not a real calendar date. */
export function parseDate(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(+m[1], +m[2] - 1, +m[3]);
  return new Date(ms).toISOString().slice(0, 10) === text ? ms : undefined;
}

export class Calendar {
  /** Cache of `YYYY-MM-DDT` prefixes: sales and stock rows format hundreds of thousands of datetimes per day. */
  private readonly prefixes = new Map<number, string>();

  constructor(readonly startMs: number) {}

  ms(day: number): number {
    return this.startMs + day * DAY_MS;
  }

  /** 0 = Sunday … 6 = Saturday, as Date.getUTCDay. */
  dow(day: number): number {
    return new Date(this.ms(day)).getUTCDay();
  }

  /** The first Monday on or after `day`. */
  mondayOnOrAfter(day: number): number {
    return day + ((8 - this.dow(day)) % 7);
  }

  month(day: number): number {
    return new Date(this.ms(day)).getUTCMonth() + 1;
  }

  year(day: number): number {
    return new Date(this.ms(day)).getUTCFullYear();
  }

  dayOfMonth(day: number): number {
    return new Date(this.ms(day)).getUTCDate();
  }

  /** 0-based day of the year, with a fractional year position for smooth seasonality. */
  yearFraction(day: number): number {
    const d = new Date(this.ms(day));
    const y = d.getUTCFullYear();
    return (this.ms(day) - Date.UTC(y, 0, 1)) / (Date.UTC(y + 1, 0, 1) - Date.UTC(y, 0, 1));
  }

  /** `YYYY-MM-DD`. */
  date(day: number): string {
    return this.prefix(day).slice(0, 10);
  }

  /** `YYYYMMDD`, for ids. */
  compact(day: number): string {
    const p = this.prefix(day);
    return p.slice(0, 4) + p.slice(5, 7) + p.slice(8, 10);
  }

  private prefix(day: number): string {
    let p = this.prefixes.get(day);
    if (p === undefined) {
      p = new Date(this.ms(day)).toISOString().slice(0, 11);
      this.prefixes.set(day, p);
    }
    return p;
  }

  /** ISO 8601 UTC with milliseconds, `seconds` after midnight of `day`. */
  iso(day: number, seconds = 0): string {
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = seconds % 60;
    return `${this.prefix(day)}${pad2(h)}:${pad2(m)}:${pad2(s)}.000Z`;
  }
}
