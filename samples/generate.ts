/**
 * CLI: npx tsx samples/generate.ts --out DIR [--seed 1] [--stores 20] [--warehouses 1|2] [--skus 3000] [--days 730]
 * [--start 2024-01-01] [--assortment fashion|basics|slow|slow-naive|intermittent] [--dirty-export] [--truth DIR].
 * Writes one file per request body into DIR and, with --truth, the simulated truth into a folder of its own (see
 * samples/README.md).
 */
import { resolve } from 'node:path';
import { parseCliArgs, USAGE } from './generator/cli-args.js';
import { DirSink, generate, OptionError, resolveOptions, toFlags } from './generator/index.js';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

const percent = (part: number, whole: number) => `${((100 * part) / (whole || 1)).toFixed(1)} %`;

try {
  const args = parseCliArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (!args.out) fail('--out DIR is required');
  // `workbench load` reads every JSON and CSV file of the data folder: the truth must not be among them.
  if (args.truth !== undefined && resolve(args.truth) === resolve(args.out))
    fail('--truth DIR must be another folder than --out DIR');
  resolveOptions(args.input); // reject bad flags before the output folder is touched
  const began = performance.now();
  const r = generate(
    args.input,
    new DirSink(args.out),
    undefined,
    args.truth === undefined ? undefined : new DirSink(args.truth, false),
  );
  const seconds = (performance.now() - began) / 1000;
  const of = (e: string) => r.files.filter((f) => f.endpoint === e);
  const rows = (e: string) => of(e).reduce((a, f) => a + f.records, 0);
  const truth =
    args.truth === undefined
      ? ''
      : `; truth in ${args.truth}: ` +
        `stock-out on ${percent(r.truth.stockOutDays, r.truth.carriedDays)} of carried days, ` +
        `${percent(r.truth.lost, r.truth.demand)} of demand lost`;
  process.stdout.write(
    `${args.out}: ${r.options.assortment}, ${r.counts.locations} locations (${r.counts.stores} stores), ` +
      `${r.counts.items} items / ${r.counts.styles} styles / ${r.counts.skus} SKUs, ` +
      `${r.counts.purchaseOrders} purchase orders (${r.counts.openPurchaseOrders} open), ` +
      `${rows('Sales')} sales (${r.stats.salesLines} lines) in ${of('Sales').length} files, ` +
      `${rows('Stock')} stock rows in ${of('Stock').length} files, ${rows('StockMutations')} stock mutations; ` +
      `${r.files.length} files, ${(r.bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s` +
      `${truth} [${toFlags(r.options)}]\n`,
  );
} catch (e) {
  if (e instanceof OptionError) fail(e.message);
  throw e;
}
