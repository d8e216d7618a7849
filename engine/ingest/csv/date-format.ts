/**
 * A file's dates as a spreadsheet writes them, declared once in its mapping (`"dateFormat": "DD/MM/YYYY HH:mm"`):
 * each cell is rewritten to the ISO 8601 text the schemas validate, so a day-first export is neither refused row by
 * row nor read month-first. Six tokens cover the exports seen (YYYY MM DD HH mm ss) between any separators; a date
 * library would bring hundreds of tokens and locales that a mapping file should not depend on.
 */
import type { ColumnType } from '../../store/table-plan.js';
import { parseIsoMicros } from '../../model/datetime.js';

export const DATE_TOKENS = ['YYYY', 'MM', 'DD', 'HH', 'mm', 'ss'] as const;
type Token = (typeof DATE_TOKENS)[number];

const DATE_PART: readonly Token[] = ['YYYY', 'MM', 'DD'];

export interface DateFormat {
  /** The format as written in the mapping. */
  text: string;
  /** An instant written in the format, for messages: 31 December 2025, 14:05:09. */
  example: string;
  /**
   * The cell as the ISO 8601 text its field takes (a date field: `YYYY-MM-DD`; a date and time: UTC), or undefined
   * when the cell does not follow the format or names no real day or time.
   */
  read(cell: string, type: ColumnType): string | undefined;
}

const escape = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pad = (n: string, width: number) => n.padStart(width, '0');

/** The format, or why it is not one (in words, for the mapping's problems). */
export function compileDateFormat(text: string): DateFormat | { error: string } {
  const parts: (Token | string)[] = [];
  for (let i = 0; i < text.length;) {
    const token = DATE_TOKENS.find((t) => text.startsWith(t, i));
    if (token) {
      if (parts.includes(token)) return { error: `${token} appears twice` };
      parts.push(token);
      i += token.length;
    } else if (/[A-Za-z0-9]/.test(text[i]) && text[i] !== 'T') {
      const run = /^[A-Za-z0-9]+/.exec(text.slice(i))![0];
      return { error: `"${run}" is not one of its tokens` };
    } else {
      parts.push(text[i]);
      i++;
    }
  }
  const has = (t: Token) => parts.includes(t);
  const missing = DATE_PART.filter((t) => !has(t));
  if (missing.length) return { error: `it has no ${missing.join(', ')}: a date needs a year, a month and a day` };
  if (has('mm') && !has('HH')) return { error: 'it has minutes (mm) but no hours (HH)' };
  if (has('ss') && !has('mm')) return { error: 'it has seconds (ss) but no minutes (mm)' };
  const lastDate = Math.max(...DATE_PART.map((t) => parts.indexOf(t)));
  const firstTime = parts.findIndex((p) => p === 'HH' || p === 'mm' || p === 'ss');
  if (firstTime >= 0 && firstTime < lastDate) return { error: 'its time comes before its date' };

  const source = (from: number, to: number) =>
    parts
      .slice(from, to)
      .map((p) =>
        p === 'YYYY' ? '(\\d{4})' : DATE_TOKENS.includes(p as Token) ? '(\\d{1,2})' : p === ' ' ? '\\s+' : escape(p),
      )
      .join('');
  // A spreadsheet leaves the time out of a date-and-time at midnight: the time part may be missing, never half there.
  const pattern =
    firstTime < 0
      ? new RegExp(`^${source(0, parts.length)}$`)
      : new RegExp(`^${source(0, lastDate + 1)}(?:${source(lastDate + 1, parts.length)})?$`);
  const order = parts.filter((p): p is Token => DATE_TOKENS.includes(p as Token));
  const sample: Record<Token, string> = { YYYY: '2025', MM: '12', DD: '31', HH: '14', mm: '05', ss: '09' };
  return {
    text,
    example: parts.map((p) => (DATE_TOKENS.includes(p as Token) ? sample[p as Token] : p)).join(''),
    read(cell, type) {
      const m = pattern.exec(cell.trim());
      if (!m) return undefined;
      const got: Partial<Record<Token, string>> = {};
      order.forEach((t, i) => (got[t] = m[i + 1]));
      const date = `${got.YYYY}-${pad(got.MM!, 2)}-${pad(got.DD!, 2)}`;
      const time = `${pad(got.HH ?? '0', 2)}:${pad(got.mm ?? '0', 2)}:${pad(got.ss ?? '0', 2)}`;
      // The ISO reader knows every month's length and leap year: 31/02 is no day.
      const iso = `${date}T${time}Z`;
      if (parseIsoMicros(iso) === undefined || Number(got.HH ?? 0) > 23) return undefined;
      return type === 'DATE' ? date : iso;
    },
  };
}
