/**
 * `workbench load`: API-shaped JSON files through the application service, one call per file, with a
 * progress bar and a summary. A rejected file is reported with its errors and leaves the workspace as it was.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import cliProgress from 'cli-progress';
import { DATASETS, type DatasetDef } from '../model/datasets.js';
import { ValidationFailed, type Problem } from '../ingest/problems.js';
import type { IngestResult, Workbench } from '../service/workbench.js';
import { expandPaths, resolveDataset } from './load-files.js';
import { datasetForFile, datasetFromFileName } from '../ingest/file-dataset.js';

export interface LoadOptions {
  dataset?: string;
  fullLoad?: boolean;
  quiet?: boolean;
}

interface FileOutcome {
  file: string;
  dataset?: string;
  records: number;
  result?: IngestResult;
  error?: string;
  problems?: Problem[];
  problemCount?: number;
}

export interface LoadReport {
  files: FileOutcome[];
  rejected: number;
  records: number;
  seconds: number;
}

const LISTED_PROBLEMS = 20;

function order(d: DatasetDef | undefined): number {
  return d ? DATASETS.indexOf(d) : DATASETS.length;
}

export async function loadFiles(wb: Workbench, paths: readonly string[], options: LoadOptions = {}, log: (line: string) => void = console.log): Promise<LoadReport> {
  const forced = resolveDataset(options.dataset);
  const files = expandPaths(paths).map((file) => ({ file, dataset: forced ?? datasetFromFileName(file), bytes: statSync(file).size }));
  // Master data first, then the datasets that refer to it: not required (endpoints are independent), but a
  // partial load then reads naturally.
  files.sort((a, b) => order(a.dataset) - order(b.dataset) || a.file.localeCompare(b.file));
  const lastOfDataset = new Map<string, string>();
  for (const f of files) if (f.dataset) lastOfDataset.set(f.dataset.name, f.file);

  const totalBytes = files.reduce((s, f) => s + f.bytes, 0);
  const tty = process.stderr.isTTY && !options.quiet;
  const bar = tty
    ? new cliProgress.SingleBar({ format: '{bar} {percentage}% | {records} records | {rate} records/s | {file}', hideCursor: true }, cliProgress.Presets.shades_classic)
    : undefined;
  bar?.start(totalBytes, 0, { records: 0, rate: 0, file: '' });
  const started = performance.now();
  let done = 0;
  let records = 0;
  const outcomes: FileOutcome[] = [];
  const brokenFullLoads = new Set<string>();

  for (const f of files) {
    const outcome: FileOutcome = { file: f.file, records: 0 };
    outcomes.push(outcome);
    try {
      const body = JSON.parse(readFileSync(f.file, 'utf8'));
      const dataset = f.dataset ?? datasetForFile(f.file, body, ' or pass --dataset');
      outcome.dataset = dataset.name;
      const list = (body as Record<string, unknown>)[dataset.envelope];
      outcome.records = Array.isArray(list) ? list.length : 0;
      if (brokenFullLoads.has(dataset.name)) throw new Error(`skipped: an earlier file of this ${dataset.name} full load was rejected`);
      const fullLoad = options.fullLoad === true && dataset.fullLoad;
      const more = fullLoad && lastOfDataset.get(dataset.name) !== f.file;
      outcome.result = await wb.ingest(dataset.name, body, { fullLoad, moreRecordsAvailable: more });
      records += outcome.records;
    } catch (e) {
      if (e instanceof ValidationFailed) {
        outcome.error = `rejected, nothing of it applied: ${e.errorCount} error${e.errorCount === 1 ? '' : 's'}`;
        outcome.problems = e.errors.slice(0, LISTED_PROBLEMS);
        outcome.problemCount = e.errorCount;
      } else {
        outcome.error = (e as Error).message;
      }
      if (options.fullLoad && outcome.dataset && !brokenFullLoads.has(outcome.dataset)) {
        brokenFullLoads.add(outcome.dataset);
        await wb.abandonFullLoad(outcome.dataset);
      }
    }
    done += f.bytes;
    const secs = (performance.now() - started) / 1000;
    bar?.update(done, { records, rate: Math.round(records / Math.max(secs, 1e-3)), file: basename(f.file) });
    if (!tty && !options.quiet) log(`${basename(f.file)}: ${outcome.error ? 'REJECTED' : `${outcome.records} records`}`);
  }
  bar?.stop();
  const seconds = (performance.now() - started) / 1000;
  return { files: outcomes, rejected: outcomes.filter((o) => o.error).length, records, seconds };
}

export function formatReport(report: LoadReport): string {
  const lines: string[] = [];
  const byDataset = new Map<string, { files: number; records: number; created: number; updated: number; deleted: number; zeroed: number; warnings: number }>();
  for (const o of report.files) {
    if (!o.result) continue;
    const s = byDataset.get(o.result.dataset) ?? { files: 0, records: 0, created: 0, updated: 0, deleted: 0, zeroed: 0, warnings: 0 };
    s.files++;
    s.records += o.result.received;
    s.created += o.result.created;
    s.updated += o.result.updated;
    s.deleted += o.result.deleted;
    s.zeroed += o.result.zeroed;
    s.warnings += o.result.warnings.length;
    byDataset.set(o.result.dataset, s);
  }
  const rows = [['dataset', 'files', 'records', 'created', 'updated', 'deleted', 'zeroed', 'warnings']];
  for (const [name, s] of byDataset) rows.push([name, s.files, s.records, s.created, s.updated, s.deleted, s.zeroed, s.warnings].map(String));
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) lines.push(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));

  for (const o of report.files) {
    for (const w of o.result?.warnings.slice(0, 5) ?? []) lines.push(`warning ${basename(o.file)}: ${w.path || '/'}: ${w.message}`);
    if (!o.error) continue;
    lines.push(`REJECTED ${o.file}${o.dataset ? ` (${o.dataset})` : ''}: ${o.error}`);
    for (const p of o.problems ?? []) lines.push(`  ${p.path}${p.recordId ? ` [${p.recordId}]` : ''}: ${p.message}`);
    if ((o.problemCount ?? 0) > (o.problems?.length ?? 0)) lines.push(`  … and ${(o.problemCount ?? 0) - (o.problems?.length ?? 0)} more`);
  }
  const rate = Math.round(report.records / Math.max(report.seconds, 1e-3));
  lines.push(`${report.records} records from ${report.files.length - report.rejected} of ${report.files.length} files in ${report.seconds.toFixed(1)} s (${rate} records/s)${report.rejected ? `; ${report.rejected} rejected` : ''}`);
  return lines.join('\n');
}
