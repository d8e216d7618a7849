/**
 * CLI: npx tsx samples/generate.ts --out DIR [--seed 1] [--stores 20] [--warehouses 1|2] [--skus 3000] [--days 730]
 * [--start 2024-01-01]. Writes one file per request body into DIR (see samples/README.md).
 */
import { parseCliArgs, USAGE } from './generator/cli-args.js';
import { DirSink, generate, OptionError, resolveOptions, toFlags } from './generator/index.js';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

try {
  const args = parseCliArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (!args.out) fail('--out DIR is required');
  resolveOptions(args.input); // reject bad flags before the output folder is touched
  const began = performance.now();
  const r = generate(args.input, new DirSink(args.out));
  const seconds = (performance.now() - began) / 1000;
  const of = (e: string) => r.files.filter((f) => f.endpoint === e);
  const rows = (e: string) => of(e).reduce((a, f) => a + f.records, 0);
  process.stdout.write(
    `${args.out}: ${r.counts.locations} locations (${r.counts.stores} stores), ${r.counts.items} items / ${r.counts.styles} styles / ${r.counts.skus} SKUs, ` +
      `${r.counts.purchaseOrders} purchase orders (${r.counts.openPurchaseOrders} open), ${rows('Sales')} sales (${r.stats.salesLines} lines) in ${of('Sales').length} files, ` +
      `${rows('Stock')} stock rows in ${of('Stock').length} files, ${rows('StockMutations')} stock mutations; ` +
      `${r.files.length} files, ${(r.bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s [${toFlags(r.options)}]\n`,
  );
} catch (e) {
  if (e instanceof OptionError) fail(e.message);
  throw e;
}
