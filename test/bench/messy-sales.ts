/**
 * A retailer's spreadsheet export of sales, generated: one row per sales line with the sale's own fields repeated on
 * each, `;` between cells and a decimal comma, day-first dates (`01/12/2010 08:26`, a midnight one without its
 * time), no originalSalesAmountInclVat, quantityTransferred or quantityCancelled column, a Description column no
 * field takes, and now and then a sale whose last line has its time a minute later. Its header is the committed
 * fixture's (test/fixtures/csv/export), so the fixture's mapping file loads it.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURES = join(process.cwd(), 'test', 'fixtures', 'csv');
const HEADER = readFileSync(join(FIXTURES, 'export', 'Sales-export.csv'), 'utf8').split('\n')[0];
const WORDS = ['WHITE', 'HEART', 'LANTERN', 'WARMER', 'ORNAMENT', 'PLAYHOUSE', 'JAM', 'SET', 'MUG', 'BAG', 'RED'];

/** The fixture's mapping file, given to a file of another name. */
export function messyMapping(name: string): unknown {
  const mapping = JSON.parse(readFileSync(join(FIXTURES, 'export-mapping.json'), 'utf8'));
  return { [name]: mapping['Sales-export.csv'] };
}

const two = (n: number) => String(n).padStart(2, '0');
const comma = (n: number) => n.toFixed(2).replace('.', ',');

/** Writes `lines` sales lines to `path`; answers the sales they make and how many of those differ between lines. */
export function writeMessySales(path: string, lines: number): { sales: number; differing: number } {
  // A fixed-seed generator (mulberry32): every run writes the same file.
  let seed = 20101201;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const fd = openSync(path, 'w');
  let chunk = `${HEADER}\n`;
  let written = 0;
  let sales = 0;
  let differing = 0;
  const start = Date.UTC(2010, 11, 1, 8, 0);
  try {
    while (written < lines) {
      const invoice = 536365 + sales;
      const count = Math.min(lines - written, 1 + Math.floor(random() * 5));
      const at = new Date(start + sales * 3 * 60_000);
      const day = `${two(at.getUTCDate())}/${two(at.getUTCMonth() + 1)}/${at.getUTCFullYear()}`;
      const midnight = sales % 97 === 0;
      const time = (minutes: number) => (midnight ? day : `${day} ${two(at.getUTCHours())}:${two(minutes)}`);
      const differs = count > 1 && sales % 251 === 0 && !midnight;
      if (differs) differing++;
      const store = `ST-${String(1 + (sales % 40)).padStart(3, '0')}`;
      const web = sales % 9 === 0 ? 'yes' : 'no';
      for (let l = 1; l <= count; l++) {
        const quantity = random() < 0.02 ? -1 : 1 + Math.floor(random() * 12);
        const price = 0.5 + Math.floor(random() * 9950) / 100;
        const description = `${WORDS[Math.floor(random() * WORDS.length)]} ${WORDS[l % WORDS.length]}`;
        const minutes = at.getUTCMinutes() + (differs && l === count ? 1 : 0);
        chunk +=
          `${invoice};${invoice}-${l};${l};SKU-${String(Math.floor(random() * 5000)).padStart(5, '0')};` +
          `${description};${quantity};${time(minutes)};${comma(quantity * price)};21;${store};${web};LOCAL\n`;
      }
      written += count;
      sales++;
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return { sales, differing };
}
