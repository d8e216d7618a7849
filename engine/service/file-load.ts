/**
 * Loading files as a user picks them, for the CLI and the Load screen alike: API-shaped JSON files (one endpoint's
 * body each, one batch per file) and CSV files (one level of a dataset each; a dataset's files make one batch).
 * Each batch is applied whole or not at all. A full load sends each dataset's batches as one full load, split
 * over them where the spec allows it; a rejected batch abandons that full load, which then deletes nothing.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { DATASETS, type DatasetDef } from '../model/datasets.js';
import { datasetForFile, datasetFromFileName } from '../ingest/file-dataset.js';
import { RequestRejected, ValidationFailed, type Problem } from '../model/problems.js';
import { ANSWER_LIMITS, NO_LIMITS, validateBatch } from '../ingest/validate.js';
import { decodeCsv, readable, readCsv, CsvUnreadable, type CsvTable } from '../ingest/csv/read.js';
import { columnarKind, readColumnar } from '../ingest/csv/columnar.js';
import { LEVEL_CHOICES, previewFile, type CsvPreview } from '../ingest/csv/preview.js';
import { detectLevel } from '../ingest/csv/mapping.js';
import { mappingFor, type CsvMapping } from '../ingest/csv/mapping-file.js';
import { resolveColumns } from '../ingest/csv/resolve.js';
import { assemble, type MappedCsv } from '../ingest/csv/assemble.js';
import type { IngestOptions, IngestResult } from './ingest-result.js';
import type { StagedLoad } from '../ingest/full-load.js';

/** A file as picked: its text or, for Parquet and Arrow, its bytes (from the UI), or its path (from the CLI). */
export type LoadFile =
  { name: string; text: string } | { name: string; bytes: Uint8Array } | { name: string; path: string };

export interface FileLoadOptions {
  /** The endpoint of every file, instead of telling it from names, bodies and columns. */
  dataset?: DatasetDef;
  fullLoad?: boolean;
  /** CSV column mapping per file; columns not named are mapped by their header. */
  mapping?: CsvMapping;
  /** What else a user can do when a file's endpoint cannot be told (the CLI: " or pass --dataset"). */
  orElse?: string;
  /**
   * Every file is checked first, as the load would check it, and nothing is loaded unless all of them pass; without
   * it each dataset's batch is loaded or refused on its own.
   */
  onlyIfAllPass?: boolean;
  /**
   * A refused batch lists every problem, not the first 1,000, and counts past 100,000: for a file of them
   * (`workbench load --errors`, the Load screen's download). Answers over HTTP keep the caps unless asked.
   */
  allProblems?: boolean;
}

export interface BatchOutcome {
  /** The file, or a dataset's CSV files. */
  files: string[];
  dataset?: string;
  records: number;
  result?: IngestResult;
  error?: string;
  problems?: Problem[];
  /** How many problems there were in all; `problems` is capped. */
  problemCount?: number;
  /** Checking stopped at `problemCount`: there are at least that many. */
  problemCountIsAtLeast?: boolean;
  /**
   * What the batch's load warns of when it is checked or refused (a loaded batch's warnings are its `result`'s):
   * columns no field takes, fields filled by their default, records that took their first row's values.
   */
  warnings?: Problem[];
}

export interface LoadProgress {
  files: number;
  filesDone: number;
  bytes: number;
  bytesDone: number;
  records: number;
  seconds: number;
  /** The file being loaded. */
  current?: string;
}

export interface LoadReport {
  batches: BatchOutcome[];
  files: number;
  /** Batches rejected (nothing of them applied). */
  rejected: number;
  records: number;
  seconds: number;
}

/** What a load needs of the workbench. */
export interface Ingester {
  ingest(dataset: string, body: unknown, options?: IngestOptions): Promise<IngestResult>;
  abandonFullLoad(dataset: string): Promise<StagedLoad | undefined>;
}

interface Batch {
  files: LoadFile[];
  dataset?: DatasetDef;
  csv: boolean;
  /** A JSON body already parsed to tell its endpoint. */
  body?: unknown;
  /** Why the batch cannot be loaded, found while planning. */
  failure?: Error;
  bytes: number;
}

/** A file of one level's rows, mapped by its columns: CSV, Parquet or Arrow IPC (the rest are API-shaped JSON). */
const isTable = (name: string) => name.toLowerCase().endsWith('.csv') || columnarKind(name) !== undefined;
const sizeOf = (f: LoadFile) =>
  'text' in f ? Buffer.byteLength(f.text) : 'bytes' in f ? f.bytes.byteLength : statSync(f.path).size;
const textOf = (f: LoadFile) =>
  'text' in f ? f.text : 'bytes' in f ? Buffer.from(f.bytes).toString('utf8') : readFileSync(f.path, 'utf8');

/**
 * A table file's header and rows (`limit`: at most that many), whatever its format; a CSV file in the encoding its
 * mapping declares (text already decoded is taken as it is).
 */
async function readTable(f: LoadFile, options: FileLoadOptions, limit?: number): Promise<CsvTable> {
  if (columnarKind(f.name)) {
    if ('text' in f) throw new RequestRejected(`${f.name} is binary: send its bytes, not its text`);
    return readColumnar(f, limit);
  }
  const encoding = mappingFor(options.mapping, f.name).encoding ?? 'utf-8';
  const all = { listAllRejects: options.allProblems === true };
  if (encoding === 'utf-8' || 'text' in f) return readCsv(f, limit, all);
  const text = decodeCsv('bytes' in f ? f.bytes : readFileSync(f.path), encoding);
  return readCsv({ name: f.name, text }, limit, all);
}

function parseJson(f: LoadFile): unknown {
  try {
    return JSON.parse(textOf(f));
  } catch (e) {
    throw new RequestRejected(`not JSON: ${(e as Error).message}`);
  }
}

/** The batches of a load in the order they go: master data first, then what refers to it. */
async function plan(files: readonly LoadFile[], options: FileLoadOptions): Promise<Batch[]> {
  const batches: Batch[] = [];
  const csvByDataset = new Map<DatasetDef, Batch>();
  const depth = new Map<LoadFile, number>();
  for (const f of files) {
    const bytes = sizeOf(f);
    if (!isTable(f.name)) {
      const batch: Batch = { files: [f], csv: false, bytes, dataset: options.dataset ?? datasetFromFileName(f.name) };
      if (!batch.dataset) {
        try {
          batch.body = parseJson(f);
          batch.dataset = datasetForFile(f.name, batch.body, options.orElse);
        } catch (e) {
          batch.failure = e as Error;
        }
      }
      batches.push(batch);
      continue;
    }
    try {
      const { headers } = await readTable(f, options, 0);
      const level = detectLevel(f.name, headers, {
        level: mappingFor(options.mapping, f.name).level,
        dataset: options.dataset,
      });
      depth.set(f, level.path.length);
      const batch = csvByDataset.get(level.dataset);
      if (batch) {
        batch.files.push(f);
        batch.bytes += bytes;
      } else {
        const created: Batch = { files: [f], csv: true, bytes, dataset: level.dataset };
        csvByDataset.set(level.dataset, created);
        batches.push(created);
      }
    } catch (e) {
      batches.push({ files: [f], csv: true, bytes, failure: e as Error });
    }
  }
  // A dataset's CSV files read from the top level down: items, SKUs, barcodes.
  for (const b of csvByDataset.values())
    b.files.sort((x, y) => depth.get(x)! - depth.get(y)! || x.name.localeCompare(y.name));
  const order = (b: Batch) => (b.dataset && !b.failure ? DATASETS.indexOf(b.dataset) : DATASETS.length);
  return batches.sort((a, b) => order(a) - order(b) || a.files[0].name.localeCompare(b.files[0].name));
}

/**
 * A dataset's CSV files read, mapped and assembled into one body, every problem found on the way thrown with its
 * file, row and column. The records' own rules are checked here when `check` says so, or when a problem is already
 * found (the schema's findings then join them, once per place); else by the ingest they go to (which would check them
 * twice). `warnings`: what the load says once per file.
 */
async function assembleCsv(
  dataset: DatasetDef,
  files: readonly LoadFile[],
  options: FileLoadOptions,
  check: boolean,
): Promise<ReturnType<typeof assemble>> {
  const mapped: MappedCsv[] = [];
  const fileProblems: Problem[] = [];
  const fileWarnings: Problem[] = [];
  for (const f of files) {
    const table = readable(await readTable(f, options));
    const fileMapping = mappingFor(options.mapping, f.name);
    const level = detectLevel(f.name, table.headers, { level: fileMapping.level, dataset });
    const resolved = resolveColumns(f.name, level, table, fileMapping);
    fileProblems.push(...resolved.problems);
    fileWarnings.push(...resolved.warnings);
    mapped.push({ table, resolved });
  }
  if (fileProblems.length) throw new ValidationFailed(dataset.name, fileProblems, fileProblems.length, fileWarnings);
  const assembled = assemble(dataset, mapped, { listAll: options.allProblems });
  const warnings = [...fileWarnings, ...assembled.warnings];
  const limits = options.allProblems ? NO_LIMITS : ANSWER_LIMITS;
  if (assembled.problemPaths.size > 0 || check) {
    let more: Problem[] = [];
    let moreCount = 0;
    let countStopped = false;
    try {
      validateBatch(dataset, assembled.body, 'upsert', (path) => assembled.problemPaths.has(path), limits);
    } catch (e) {
      if (!(e instanceof ValidationFailed)) throw e;
      more = e.errors.map(assembled.locate);
      moreCount = e.errorCount;
      countStopped = e.countStopped;
    }
    if (assembled.problemCount + moreCount > 0)
      throw new ValidationFailed(
        dataset.name,
        [...assembled.problems, ...more],
        assembled.problemCount + moreCount,
        warnings,
        countStopped,
      );
  }
  return { ...assembled, warnings };
}

/**
 * A batch ingested, its refusal listing every problem when the load asks for all of them (the ingest's own check
 * lists the first 1,000): the body is checked again without limits only then, for a refusal that left some out.
 */
async function ingestWhole(
  wb: Ingester,
  dataset: DatasetDef,
  body: unknown,
  options: FileLoadOptions,
  ingest: IngestOptions,
  csv?: { locate: (p: Problem) => Problem; warnings: Problem[] },
): Promise<IngestResult> {
  try {
    return await wb.ingest(dataset.name, body, ingest);
  } catch (e) {
    if (!(e instanceof ValidationFailed)) throw e;
    let all = e;
    if (options.allProblems && (e.errors.length < e.errorCount || e.countStopped)) {
      try {
        validateBatch(dataset, body, 'upsert', undefined, NO_LIMITS);
      } catch (every) {
        if (every instanceof ValidationFailed) all = every;
      }
    }
    throw new ValidationFailed(
      e.dataset,
      csv ? all.errors.map(csv.locate) : all.errors,
      all.errorCount,
      [...(csv?.warnings ?? []), ...e.warnings],
      all.countStopped,
    );
  }
}

/** A dataset's CSV files as one batch: read, mapped, assembled into records, validated and ingested whole. */
async function ingestCsv(
  wb: Ingester,
  dataset: DatasetDef,
  files: readonly LoadFile[],
  options: FileLoadOptions,
  ingest: IngestOptions,
): Promise<{ records: number; result: IngestResult }> {
  const assembled = await assembleCsv(dataset, files, options, false);
  const result = await ingestWhole(wb, dataset, assembled.body, options, ingest, assembled);
  // What the files' mapping left behind or filled in is told with the load, beside what the records' checks warn of.
  return { records: assembled.records, result: { ...result, warnings: [...assembled.warnings, ...result.warnings] } };
}

/** A batch's refusal as its outcome tells it: the reason, and every problem with its place when there are some. */
function refuse(outcome: BatchOutcome, e: unknown): void {
  if (e instanceof ValidationFailed || e instanceof CsvUnreadable) {
    const count = e instanceof ValidationFailed ? e.errorCount : e.problemCount;
    const atLeast = e instanceof ValidationFailed && e.countStopped;
    outcome.error =
      `rejected, nothing of it applied: ${count}${atLeast ? ' or more' : ''} error${count === 1 ? '' : 's'}` +
      (atLeast ? ' (checking stopped there)' : '');
    outcome.problems = e instanceof ValidationFailed ? e.errors : e.problems;
    outcome.problemCount = count;
    if (e instanceof ValidationFailed && e.warnings.length) outcome.warnings = e.warnings;
    if (atLeast) outcome.problemCountIsAtLeast = true;
  } else {
    outcome.error = (e as Error).message;
  }
}

/**
 * What a load of these files would meet, without loading anything: every batch read, mapped, assembled and
 * checked against the records' rules exactly as the load checks it, in the order it would go. Outcomes without an
 * error would load (`records` of them).
 */
export async function checkFiles(files: readonly LoadFile[], options: FileLoadOptions = {}): Promise<BatchOutcome[]> {
  return checkBatches(await plan(files, options), options);
}

/** A batch's outcome before anything is known of it. */
const outcomeOf = (batch: Batch): BatchOutcome => ({
  files: batch.files.map((f) => f.name),
  dataset: batch.dataset?.name,
  records: 0,
});

/** The planned batches checked as their load would check them (`checkFiles`). */
async function checkBatches(batches: readonly Batch[], options: FileLoadOptions): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = [];
  for (const batch of batches) {
    const dataset = batch.dataset;
    const outcome = outcomeOf(batch);
    outcomes.push(outcome);
    try {
      if (batch.failure || !dataset) throw batch.failure;
      const limits = options.allProblems ? NO_LIMITS : ANSWER_LIMITS;
      const { records, warnings } = batch.csv
        ? await assembleCsv(dataset, batch.files, options, true)
        : validateBatch(dataset, batch.body ?? parseJson(batch.files[0]), 'upsert', undefined, limits);
      outcome.records = typeof records === 'number' ? records : records.length;
      if (warnings.length) outcome.warnings = warnings;
    } catch (e) {
      refuse(outcome, e);
    }
  }
  return outcomes;
}

/**
 * Loads the planned batches one after another, each applied or refused on its own (with `onlyIfAllPass`, all are
 * checked first and none loads unless every one passes); `onProgress` hears before and after each batch.
 */
export async function loadFiles(
  wb: Ingester,
  files: readonly LoadFile[],
  options: FileLoadOptions = {},
  onProgress?: (p: LoadProgress) => void,
): Promise<LoadReport> {
  const started = performance.now();
  const batches = await plan(files, options);
  if (options.onlyIfAllPass) {
    const refused = await refusedUnlessAllPass(batches, files.length, options, started);
    if (refused) return refused;
  }
  const teller = new ProgressTeller(files.length, batches, started, onProgress);
  const fullLoads = new FileFullLoads(wb, options);
  const outcomes: BatchOutcome[] = [];
  for (const [i, batch] of batches.entries()) {
    const outcome = outcomeOf(batch);
    outcomes.push(outcome);
    teller.starting(batch);
    try {
      await loadBatch(wb, batches, i, outcome, options, fullLoads);
      teller.progress.records += outcome.records;
    } catch (e) {
      refuse(outcome, e);
      await fullLoads.refused(batch.dataset);
    }
    teller.finished(batch);
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    batches: outcomes,
    files: files.length,
    rejected: outcomes.filter((o) => o.error).length,
    records: teller.progress.records,
    seconds,
  };
}

/** With `onlyIfAllPass`: the report of a load refused whole because some batch would be refused, else nothing. */
async function refusedUnlessAllPass(
  batches: readonly Batch[],
  files: number,
  options: FileLoadOptions,
  started: number,
): Promise<LoadReport | undefined> {
  const checked = await checkBatches(batches, options);
  if (!checked.some((o) => o.error)) return undefined;
  for (const o of checked)
    o.error ??= 'not loaded: it passes, but the load was to go only if every file passed, and some did not';
  return {
    batches: checked,
    files,
    rejected: checked.length,
    records: 0,
    seconds: (performance.now() - started) / 1000,
  };
}

/** A load's progress, told before each batch (naming its files) and after it. */
class ProgressTeller {
  readonly progress: LoadProgress;

  constructor(
    files: number,
    batches: readonly Batch[],
    private readonly started: number,
    private readonly onProgress?: (p: LoadProgress) => void,
  ) {
    this.progress = {
      files,
      filesDone: 0,
      bytes: batches.reduce((s, b) => s + b.bytes, 0),
      bytesDone: 0,
      records: 0,
      seconds: 0,
    };
  }

  starting(batch: Batch): void {
    this.progress.current = batch.files.map((f) => basename(f.name)).join(', ');
    this.tell();
  }

  finished(batch: Batch): void {
    this.progress.filesDone += batch.files.length;
    this.progress.bytesDone += batch.bytes;
    this.tell();
  }

  private tell(): void {
    this.onProgress?.({ ...this.progress, seconds: (performance.now() - this.started) / 1000 });
  }
}

/**
 * The full loads of one call of loadFiles: the files of a dataset are its whole load, so the first drops a split
 * load another client left open, and once one file is refused the load is abandoned and its later files skipped.
 */
class FileFullLoads {
  private readonly begun = new Set<DatasetDef>();
  private readonly broken = new Set<DatasetDef>();

  constructor(
    private readonly wb: Ingester,
    private readonly options: FileLoadOptions,
  ) {}

  checkNotBroken(dataset: DatasetDef): void {
    if (this.broken.has(dataset))
      throw new RequestRejected(`skipped: an earlier file of this ${dataset.name} full load was rejected`);
  }

  /** At a dataset's first file: the split load it drops, if one was open. */
  async begin(dataset: DatasetDef, fullLoad: boolean): Promise<StagedLoad | undefined> {
    const dropped = fullLoad && !this.begun.has(dataset) ? await this.wb.abandonFullLoad(dataset.name) : undefined;
    this.begun.add(dataset);
    return dropped;
  }

  async refused(dataset: DatasetDef | undefined): Promise<void> {
    // Only a dataset that has full loads is sent as one: elsewhere each file is an upsert of its own.
    if (this.options.fullLoad && dataset?.fullLoad && !this.broken.has(dataset)) {
      this.broken.add(dataset);
      await this.wb.abandonFullLoad(dataset.name);
    }
  }
}

/** Loads batch `i` into `outcome`, or throws why it is refused. */
async function loadBatch(
  wb: Ingester,
  batches: readonly Batch[],
  i: number,
  outcome: BatchOutcome,
  options: FileLoadOptions,
  fullLoads: FileFullLoads,
): Promise<void> {
  const batch = batches[i];
  const dataset = batch.dataset;
  if (batch.failure || !dataset) throw batch.failure;
  fullLoads.checkNotBroken(dataset);
  const fullLoad = options.fullLoad === true && dataset.fullLoad;
  const dropped = await fullLoads.begin(dataset, fullLoad);
  const ingest = {
    fullLoad,
    moreRecordsAvailable: fullLoad && batches.slice(i + 1).some((b) => b.dataset === dataset && !b.failure),
  };
  if (batch.csv) {
    const { records, result } = await ingestCsv(wb, dataset, batch.files, options, ingest);
    outcome.records = records;
    outcome.result = result;
  } else {
    const body = batch.body ?? parseJson(batch.files[0]);
    const list = (body as Record<string, unknown> | null)?.[dataset.envelope];
    outcome.records = Array.isArray(list) ? list.length : 0;
    outcome.result = await ingestWhole(wb, dataset, body, options, ingest);
  }
  if (dropped)
    outcome.result?.warnings.unshift({
      path: '',
      message:
        `a split full load of ${dataset.name} left open (${dropped.calls} call${dropped.calls === 1 ? '' : 's'}, ` +
        `${dropped.records} records) ` +
        'was dropped: these files are the whole load',
    });
}

/** Rows of each file the mapping step shows. */
export const PREVIEW_ROWS = 20;

/** The mapping step: each CSV file's level, its columns' fields and its first rows as they will load. */
export async function previewCsv(files: readonly LoadFile[], options: FileLoadOptions = {}): Promise<CsvPreview> {
  const previews = [];
  for (const f of files.filter((x) => isTable(x.name))) {
    let read: CsvTable | Error;
    try {
      read = await readTable(f, options, PREVIEW_ROWS);
    } catch (e) {
      read = e as Error;
    }
    previews.push(previewFile(f.name, read, mappingFor(options.mapping, f.name), options.dataset));
  }
  return { files: previews, levels: LEVEL_CHOICES };
}
