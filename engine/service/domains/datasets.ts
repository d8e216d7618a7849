/**
 * The datasets: the specification's write endpoints (upsert, delete, full loads split over calls) and the reads of
 * what they hold. Owns the datasets' tables and the staged parts of split full loads.
 */
import { DATASETS, getDataset, type DatasetDef } from '../../model/datasets.js';
import { formatIsoMicros, parseIsoMicros } from '../../model/datetime.js';
import { countRecords, readRecords } from '../../store/read.js';
import { allTables, q, tablePlan } from '../../store/table-plan.js';
import {
  ABANDON_AFTER_MICROS,
  discardStaged,
  stageCall,
  stagedLoad,
  stagedRecords,
  type StagedLoad,
} from '../../ingest/full-load.js';
import { latestLevel, stampStockLevels, zeroStockNotSent } from '../../ingest/stock-levels.js';
import { moveWarnings, softDeleteNotWrittenSince, softDeleteRecords, upsertRecords } from '../../ingest/upsert.js';
import { recordKeyText, validateBatch, type JsonRecord, type ValidatedBatch } from '../../ingest/validate.js';
import { datasetForFile } from '../../ingest/file-dataset.js';
import { defaultAsOfDay, locationKindsOfData } from '../../inputs/engine-state.js';
import type { IngestOptions, IngestResult } from '../ingest-result.js';
import { RequestRejected, ValidationFailed, type Problem } from '../../model/problems.js';
import { businessNames, workspaceCurrency, type BusinessNames } from '../names.js';
import { clearTables, type ClearsOnReset, type ServiceContext } from './context.js';
import { workspaceSummary, type DatasetSummary } from '../summary.js';

export type { DatasetSummary };

/** Largest page of records the service gives (the admin API's bound on every page it pages). */
export const PAGE_MAX = 10_000;

export type PurchaseOrderStatus = 'open' | 'partiallyReceived' | 'closed' | 'deleted';

/** How one call takes part in a load: a full load or not, a part of a split one or not. */
interface LoadMode {
  fullLoad: boolean;
  split: boolean;
}

export class DatasetService implements ClearsOnReset {
  constructor(private readonly ctx: ServiceContext) {}

  datasets(): readonly DatasetDef[] {
    return DATASETS;
  }

  /** One file as a user picked it: its endpoint told by its name or body, then ingested like a call to it. */
  ingestFile(fileName: string, body: unknown): Promise<IngestResult> {
    return this.ingest(datasetForFile(fileName, body).name, body);
  }

  /**
   * POST: validates the whole batch, then applies it in one transaction. Throws ValidationFailed (nothing
   * applied) when any record is invalid.
   */
  async ingest(datasetName: string, body: unknown, options: IngestOptions = {}): Promise<IngestResult> {
    const dataset = getDataset(datasetName);
    const batch = await this.validated(dataset, body, options);
    const warnings = [...batch.warnings];
    const mode = loadMode(dataset, options, warnings);
    return this.ctx.workspace.exclusive(async () => {
      if (mode.fullLoad) await this.refuseAbandonedLoad(dataset);
      return this.ctx.workspace.transaction(() => this.apply(dataset, batch.records, mode, warnings));
    });
  }

  /** Drops an unfinished split full load of a dataset: nothing of it is applied or deleted. Returns what it held. */
  abandonFullLoad(datasetName: string): Promise<StagedLoad | undefined> {
    const dataset = getDataset(datasetName);
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => {
      const open = await stagedLoad(ws, dataset.name);
      await discardStaged(ws, dataset.name);
      return open;
    });
  }

  /** DELETE: soft-deletes the records the body names by key. */
  async remove(datasetName: string, body: unknown): Promise<IngestResult> {
    const dataset = getDataset(datasetName);
    if (!dataset.deletable) throw new RequestRejected(`/${dataset.name} has no DELETE in the spec`, 405);
    const batch = validateBatch(dataset, body, 'delete');
    const ws = this.ctx.workspace;
    return ws.exclusive(() =>
      ws.transaction(async () => {
        const r = await softDeleteRecords(ws, dataset, batch.records, this.ctx.stamp());
        const warnings = [...batch.warnings];
        if (r.notFoundCount) {
          warnings.push({
            path: `/${dataset.envelope}`,
            message:
              `${r.notFoundCount} record${r.notFoundCount === 1 ? ' was' : 's were'} not found or already deleted: ` +
              `${r.notFound.join(', ')}${r.notFoundCount > r.notFound.length ? ', …' : ''}`,
          });
        }
        return {
          dataset: dataset.name,
          received: batch.records.length,
          created: 0,
          updated: 0,
          deleted: r.deleted,
          zeroed: 0,
          warnings,
        };
      }),
    );
  }

  /** One stored record, or undefined when absent or soft-deleted. `id` is the key, composite keys as an array. */
  async read(datasetName: string, id: string | readonly string[]): Promise<JsonRecord | undefined> {
    const dataset = getDataset(datasetName);
    const ids = typeof id === 'string' ? [id] : id;
    if (ids.length !== dataset.key.length)
      throw new RequestRejected(`/${dataset.name} records are identified by ${dataset.key.join(' + ')}`);
    const key = Object.fromEntries(dataset.key.map((k, i) => [k, ids[i]]));
    if (dataset.history && parseIsoMicros(String(key.stockDateTime)) === undefined) return undefined;
    const ws = this.ctx.workspace;
    const [record] = await ws.exclusive(() => readRecords(ws, dataset, { keys: [key] }));
    return record;
  }

  /** Live records in key order. */
  async list(
    datasetName: string,
    page: { offset?: number; limit?: number } = {},
  ): Promise<{ records: JsonRecord[]; total: number; offset: number; limit: number }> {
    const dataset = getDataset(datasetName);
    const offset = Math.max(0, Math.floor(page.offset ?? 0));
    const limit = Math.min(PAGE_MAX, Math.max(0, Math.floor(page.limit ?? 100)));
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => {
      const records = await readRecords(ws, dataset, { offset, limit });
      const { live } = await countRecords(ws, dataset);
      return { records, total: live, offset, limit };
    });
  }

  /** Current on-hand of a location/SKU: its latest stock level plus the mutations after it. */
  async stock(
    locationId: string,
    skuId: string,
  ): Promise<{ locationId: string; skuId: string; quantity: number } | undefined> {
    const ws = this.ctx.workspace;
    const [row] = await ws.exclusive(() =>
      ws.rows<{ quantity: number }>('SELECT quantity FROM current_stock WHERE locationId = $1 AND skuId = $2', [
        locationId,
        skuId,
      ]),
    );
    return row ? { locationId, skuId, quantity: Number(row.quantity) } : undefined;
  }

  async purchaseOrderStatus(purchaseOrderId: string): Promise<PurchaseOrderStatus | undefined> {
    const ws = this.ctx.workspace;
    const [row] = await ws.exclusive(() =>
      ws.rows<{ status: PurchaseOrderStatus }>('SELECT status FROM purchase_order_status WHERE purchaseOrderId = $1', [
        purchaseOrderId,
      ]),
    );
    return row?.status;
  }

  /** Counts, date ranges, last write and open split loads per dataset. */
  summary(): Promise<DatasetSummary[]> {
    return workspaceSummary(this.ctx.workspace);
  }

  /** The business names beside the ids (locations, styles, categories) and the workspace's currency. */
  names(): Promise<BusinessNames> {
    const ws = this.ctx.workspace;
    return ws.exclusive(async () =>
      businessNames(ws, await locationKindsOfData(ws, await defaultAsOfDay(ws, this.ctx.clock()))),
    );
  }

  /** The code the workspace's values are in (`LOCAL`, `EUR`), when its data says. */
  currency(): Promise<string | undefined> {
    const ws = this.ctx.workspace;
    return ws.exclusive(() => workspaceCurrency(ws));
  }

  /** Every dataset's records and unfinished split loads (the caller holds the workspace, in a transaction). */
  async clear(): Promise<void> {
    for (const d of DATASETS)
      await clearTables(
        this.ctx,
        allTables(tablePlan(d)).map((t) => q(t.table)),
      );
    await clearTables(this.ctx, ['full_load_staging', 'record_moves']);
  }

  private async validated(dataset: DatasetDef, body: unknown, options: IngestOptions): Promise<ValidatedBatch> {
    try {
      return validateBatch(dataset, body, 'upsert');
    } catch (e) {
      throw await this.withOpenLoad(dataset, options, e);
    }
  }

  /**
   * A refused call of a full load leaves a split load of its dataset open, so that the call sent again corrected
   * continues it: the refusal says so, and how to drop the load instead.
   */
  private async withOpenLoad(dataset: DatasetDef, options: IngestOptions, e: unknown): Promise<unknown> {
    if (!(e instanceof ValidationFailed) || !options.fullLoad || !dataset.fullLoad) return e;
    const ws = this.ctx.workspace;
    const open = await ws.exclusive(() => stagedLoad(ws, dataset.name));
    if (!open) return e;
    const note: Problem = {
      path: '',
      message:
        `the split full load of ${dataset.name} started ${formatIsoMicros(open.startedAt)} stays open ` +
        `(${open.calls} call${open.calls === 1 ? '' : 's'}, ${open.records} records): the next fullLoad=true call ` +
        `continues it, so send this call again corrected, or drop the load first with ` +
        `DELETE /_workbench/full-loads/${dataset.name}`,
    };
    return new ValidationFailed(e.dataset, e.errors, e.errorCount, [...e.warnings, note], e.countStopped);
  }

  /**
   * A split full load that went silent for an hour is over: its staged part is discarded (and that sticks), and
   * the call that meets it is refused, since it cannot tell whether it continues that load or starts one.
   */
  private async refuseAbandonedLoad(dataset: DatasetDef): Promise<void> {
    const ws = this.ctx.workspace;
    const stale = await stagedLoad(ws, dataset.name);
    if (!stale || this.ctx.clock() - stale.lastCallAt <= ABANDON_AFTER_MICROS) return;
    await discardStaged(ws, dataset.name);
    throw new RequestRejected(
      `the split full load of ${dataset.name} started ${formatIsoMicros(stale.startedAt)} ` +
        `had no call for over an hour and was abandoned: ` +
        'nothing of it was applied or deleted. Send the full load again from its first call.',
      409,
    );
  }

  /**
   * One call's valid records applied (the caller holds the workspace, in a transaction): kept aside when the call
   * is a part of a split full load, else upserted with the parts staged before it, and what a full load does not
   * hold deleted or, for stock, set to 0.
   */
  private async apply(
    dataset: DatasetDef,
    valid: JsonRecord[],
    mode: LoadMode,
    warnings: Problem[],
  ): Promise<IngestResult> {
    const ws = this.ctx.workspace;
    const stamp = this.ctx.stamp();
    let records = dataset.history ? stampStockLevels(valid, stamp) : valid;
    const result: IngestResult = {
      dataset: dataset.name,
      received: records.length,
      created: 0,
      updated: 0,
      deleted: 0,
      zeroed: 0,
      warnings,
    };
    const staged = mode.fullLoad ? await stagedLoad(ws, dataset.name) : undefined;
    const startedAt = staged?.startedAt ?? stamp;
    const calls = (staged?.calls ?? 0) + 1;
    if (mode.split) {
      await stageCall(ws, dataset.name, records, startedAt, stamp, calls);
      const total = (staged?.records ?? 0) + records.length;
      result.staged = { calls, records: total, startedAt: formatIsoMicros(startedAt) };
      return result;
    }
    if (staged) {
      records = latestWins(dataset, [...(await stagedRecords(ws, dataset.name)), ...records]);
      await discardStaged(ws, dataset.name);
      result.completed = { calls, records: records.length, startedAt: formatIsoMicros(startedAt) };
    }
    const { created, updated, moved } = await upsertRecords(ws, dataset, records, stamp);
    result.created = created;
    result.updated = updated;
    warnings.push(...moveWarnings(moved, dataset.envelope));
    if (mode.fullLoad) await this.dropNotSent(dataset, records, startedAt, stamp, result);
    return result;
  }

  /** What a completed full load does not hold: stock set to 0 at the load's time, other records deleted. */
  private async dropNotSent(
    dataset: DatasetDef,
    records: JsonRecord[],
    startedAt: number,
    stamp: number,
    result: IngestResult,
  ): Promise<void> {
    const ws = this.ctx.workspace;
    if (dataset.history) {
      const at = latestLevel(records, parseIsoMicros);
      result.zeroed = await zeroStockNotSent(ws, startedAt, Number.isFinite(at) ? at : stamp, stamp);
    } else {
      result.deleted = await softDeleteNotWrittenSince(ws, dataset, startedAt, stamp);
    }
  }
}

/** The call's fullLoad and moreRecordsAvailable as the dataset takes them; one that has no effect gets a warning. */
function loadMode(dataset: DatasetDef, options: IngestOptions, warnings: Problem[]): LoadMode {
  let fullLoad = options.fullLoad === true;
  if (fullLoad && !dataset.fullLoad) {
    warnings.push({
      path: '',
      message:
        `fullLoad is not an option of /${dataset.name} in the spec; ` +
        `the records were upserted and nothing was deleted`,
    });
    fullLoad = false;
  }
  if (options.moreRecordsAvailable && !fullLoad) {
    warnings.push({ path: '', message: 'moreRecordsAvailable has no effect without fullLoad=true' });
  }
  return { fullLoad, split: fullLoad && options.moreRecordsAvailable === true };
}

/** Records of a split load in call order: a record sent again later replaces its earlier copy. */
function latestWins(dataset: DatasetDef, records: JsonRecord[]): JsonRecord[] {
  const byKey = new Map<string, JsonRecord>();
  for (const r of records) {
    const k = recordKeyText(dataset, r);
    byKey.delete(k);
    byKey.set(k, r);
  }
  return [...byKey.values()];
}
