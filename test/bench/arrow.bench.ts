/**
 * bench:arrow — 100,000 transfer lines as the admin API sends them to the Transfers screen: JSON against an Arrow
 * IPC stream (engine/server/arrow.ts), bytes on the wire and the time to decode them back into rows the screen
 * reads. The lines are made up, shaped like a large run's (100 stores, 5,000 SKUs, reasons in words).
 */
import { tableFromIPC } from 'apache-arrow';
import { PROPOSAL_COLUMNS, rowsToArrow } from '../../engine/server/arrow.js';
import type { ProposalRow } from '../../engine/service/transfers.js';

const N = 100_000;
const TYPES = ['Replenishment', 'Redistribution', 'InitialDistribution'] as const;
const rows: ProposalRow[] = Array.from({ length: N }, (_, i) => {
  const store = `ST-${String((i * 7919) % 100).padStart(3, '0')}`;
  const sku = `IT${10000 + ((i * 104729) % 1000)}-BLK-${['S', 'M', 'L', 'XL', 'XXL'][i % 5]}`;
  const type = TYPES[i % 3];
  return {
    referenceId: `${type.slice(0, 2).toUpperCase()}-${i.toString(36).padStart(8, '0')}`,
    runId: 'run-000042',
    transferType: type,
    fromLocationId: i % 3 === 1 ? `ST-${String((i * 31) % 100).padStart(3, '0')}` : 'WH-01',
    toLocationId: store,
    skuId: sku,
    styleId: sku.replace(/-[^-]+$/, ''),
    quantity: 1 + (i % 12),
    reason:
      `below target at ${store} (on hand ${i % 4}, target ${4 + (i % 9)}; ` +
      `demand ${((i % 17) / 10).toFixed(2)}/day over 14 days at 90% service)`,
    details: { onHand: i % 4, target: 4 + (i % 9), demandPerDay: (i % 17) / 10 },
  };
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(f: () => void, runs = 7): number {
  const ms: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    f();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

const json = new TextEncoder().encode(JSON.stringify({ proposals: rows, total: N }));
const arrow = rowsToArrow(rows, PROPOSAL_COLUMNS);
const decoder = new TextDecoder();
let checked = 0;
const jsonMs = time(() => {
  const back = JSON.parse(decoder.decode(json)) as { proposals: ProposalRow[] };
  checked = back.proposals.length;
});
// What the screen reads: a row per line with its fields (details stay text until a line is opened).
const arrowMs = time(() => {
  const table = tableFromIPC(arrow);
  const back = table.toArray();
  checked = back.length;
});
const arrowColumnsMs = time(() => {
  const table = tableFromIPC(arrow);
  checked = table.getChild('quantity')!.length;
});
const encodeMs = time(() => rowsToArrow(rows, PROPOSAL_COLUMNS), 3);
const jsonEncodeMs = time(() => JSON.stringify({ proposals: rows, total: N }), 3);
if (checked !== N) throw new Error(`decoded ${checked} of ${N}`);
const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
console.log(`bench:arrow — ${N.toLocaleString('en')} transfer lines`);
console.log(
  `JSON:  ${mb(json.length)}, decode (UTF-8 + JSON.parse) ${jsonMs.toFixed(0)} ms; ` +
    `encode ${jsonEncodeMs.toFixed(0)} ms`,
);
console.log(
  `Arrow: ${mb(arrow.length)} (${((arrow.length / json.length) * 100).toFixed(0)} % of JSON), ` +
    `decode to rows ${arrowMs.toFixed(0)} ms, to columns ${arrowColumnsMs.toFixed(1)} ms; ` +
    `encode ${encodeMs.toFixed(0)} ms`,
);
