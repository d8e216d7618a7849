/** The CLI's flags, parsed with node:util parseArgs; shared with the test that regenerates the committed demo. */
import { parseArgs } from 'node:util';
import { OptionError, type OptionInput } from './options.js';

export const USAGE =
  'usage: npx tsx samples/generate.ts --out DIR [--seed 1] [--stores 20] [--warehouses 1|2] [--skus 3000] ' +
  '[--days 730] [--start 2024-01-01] [--assortment fashion|basics|slow|slow-naive|intermittent] [--dirty-export] ' +
  '[--webshop-from-warehouse] [--truth DIR]';

export interface CliArgs {
  out?: string;
  /** Folder for the simulated truth (truth-daily.csv, truth-summary.json); never the data folder. */
  truth?: string;
  help: boolean;
  input: OptionInput;
}

function integer(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text.trim())) throw new OptionError(`--${flag} must be a whole number, got "${text}"`);
  return Number(text);
}

/** Throws OptionError with a message fit for the terminal. */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        out: { type: 'string' },
        seed: { type: 'string' },
        stores: { type: 'string' },
        warehouses: { type: 'string' },
        skus: { type: 'string' },
        days: { type: 'string' },
        start: { type: 'string' },
        assortment: { type: 'string' },
        'dirty-export': { type: 'boolean' },
        'webshop-from-warehouse': { type: 'boolean' },
        truth: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new OptionError((e as Error).message);
  }
  const str = (k: string) => values[k] as string | undefined;
  return {
    out: str('out'),
    truth: str('truth'),
    help: values.help === true,
    input: {
      seed: integer('seed', str('seed')),
      stores: integer('stores', str('stores')),
      warehouses: integer('warehouses', str('warehouses')),
      skus: integer('skus', str('skus')),
      days: integer('days', str('days')),
      start: str('start'),
      assortment: str('assortment'),
      dirtyExport: values['dirty-export'] === true,
      webshopFromWarehouse: values['webshop-from-warehouse'] === true,
    },
  };
}
