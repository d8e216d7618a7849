/**
 * What a workspace holds, per dataset: counts, business dates, last write and an open split load. Apart from the
 * service so that `workbench info` reads it with the store alone, without loading the engine.
 */
import { DATASETS } from '../model/datasets.js';
import { formatIsoMicros } from '../model/datetime.js';
import { stagedLoad } from '../ingest/full-load.js';
import { countRecords } from '../store/read.js';
import { q } from '../store/table-plan.js';
import type { Workspace } from '../store/workspace.js';

export interface DatasetSummary {
  dataset: string;
  live: number;
  deleted: number;
  lastWrite?: string;
  /** First and last business date of transactional datasets. */
  from?: string;
  to?: string;
  stagedFullLoad?: { calls: number; records: number; startedAt: string };
  /** The spec offers a full load of it: what a full load does not hold is deleted (stock: set to 0). */
  fullLoad: boolean;
}

/** Business dates of the datasets that have them, for the summary. */
const DATE_FIELDS: Record<string, string> = {
  Sales: 'salesDateTime',
  Stock: 'stockDateTime',
  StockMutations: 'mutationDateTime',
  PurchaseOrders: 'orderDate',
};

/** Counts, date ranges, last write and open split loads per dataset. */
export function workspaceSummary(ws: Workspace): Promise<DatasetSummary[]> {
  return ws.exclusive(async () => {
    const out: DatasetSummary[] = [];
    for (const d of DATASETS) {
      const c = await countRecords(ws, d);
      const s: DatasetSummary = { dataset: d.name, live: c.live, deleted: c.deleted, fullLoad: d.fullLoad };
      if (c.lastWrite !== undefined) s.lastWrite = formatIsoMicros(c.lastWrite);
      const dateField = DATE_FIELDS[d.name];
      if (dateField && c.live) {
        const [r] = await ws.rows<{ a: bigint; b: bigint }>(
          `SELECT epoch_us(min(${q(dateField)})) AS a, epoch_us(max(${q(dateField)})) AS b
           FROM ${q(d.table)} WHERE _deleted_at IS NULL`,
        );
        s.from = formatIsoMicros(Number(r.a));
        s.to = formatIsoMicros(Number(r.b));
      }
      const staged = await stagedLoad(ws, d.name);
      if (staged)
        s.stagedFullLoad = {
          calls: staged.calls,
          records: staged.records,
          startedAt: formatIsoMicros(staged.startedAt),
        };
      out.push(s);
    }
    return out;
  });
}
