/**
 * `workbench load`: API-shaped JSON and CSV files through the application service's file load, with a progress
 * bar and a summary. A rejected batch is reported with its errors and leaves the workspace as it was.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Problem } from '../model/problems.js';
import { parseCsvMapping, type CsvMapping } from '../ingest/csv/mapping-file.js';
import type { LoadReport } from '../service/file-load.js';
import type { Workbench } from '../service/workbench.js';
import { expandPaths, resolveDataset } from './load-files.js';
import { progressBar } from './progress.js';
import { count, duration, perSecond, whole } from '../../common/format.js';

export interface LoadOptions {
  dataset?: string;
  fullLoad?: boolean;
  /** Load nothing unless every file passes the load's checks. */
  onlyIfAllPass?: boolean;
  quiet?: boolean;
  /** A JSON file of CSV column mappings. */
  map?: string;
  /** A CSV file to write every problem to, uncapped (the console lists the first few of each batch). */
  errors?: string;
}

const LISTED_PROBLEMS = 20;
const LISTED_WARNINGS = 5;

function readMapping(file: string): CsvMapping {
  try {
    return parseCsvMapping(JSON.parse(readFileSync(file, 'utf8')));
  } catch (e) {
    throw new Error(`--map ${file}: ${(e as Error).message}`);
  }
}

export async function loadFiles(
  wb: Workbench,
  paths: readonly string[],
  options: LoadOptions = {},
  log: (line: string) => void = console.log,
): Promise<LoadReport> {
  const dataset = resolveDataset(options.dataset);
  const mapping = options.map ? readMapping(options.map) : undefined;
  const files = expandPaths(paths).map((path) => ({ name: path, path }));
  const tty = process.stderr.isTTY && !options.quiet;
  const bar = progressBar<{ records: number; rate: number; file: string }>(
    '{bar} {percentage}% | {records} records | {rate} records/s | {file}',
    tty,
  );
  let filesDone = 0;
  const report = await wb.loadFiles(
    files,
    {
      dataset,
      fullLoad: options.fullLoad,
      onlyIfAllPass: options.onlyIfAllPass,
      mapping,
      orElse: ' or pass --dataset',
      allProblems: options.errors !== undefined,
    },
    (p) => {
      bar?.update(p.bytesDone, Math.max(p.bytes, 1), {
        records: p.records,
        rate: Math.round(p.records / Math.max(p.seconds, 1e-3)),
        file: p.current ?? '',
      });
      if (!tty && !options.quiet && p.filesDone > filesDone)
        log(`${whole(p.filesDone)} of ${count(p.files, 'file')}: ${count(p.records, 'record')}`);
      filesDone = p.filesDone;
    },
  );
  bar?.stop();
  return report;
}

/** Where a problem lies: the CSV file, row and column when it came from one, and the record's pointer and id. */
function place(p: Problem): string {
  const csv =
    p.file === undefined
      ? ''
      : `${basename(p.file)}${p.row === undefined ? '' : ` row ${p.row}`}` +
        (p.column === undefined ? '' : `, column "${p.column}"`);
  const json = `${p.path}${p.recordId ? ` [${p.recordId}]` : ''}`;
  return [csv, json].filter((s) => s !== '').join(' ') || '/';
}

export function formatReport(report: LoadReport): string {
  const lines: string[] = [];
  const byDataset = new Map<
    string,
    {
      files: number;
      records: number;
      created: number;
      updated: number;
      deleted: number;
      zeroed: number;
      warnings: number;
    }
  >();
  for (const o of report.batches) {
    if (!o.result) continue;
    const s = byDataset.get(o.result.dataset) ?? {
      files: 0,
      records: 0,
      created: 0,
      updated: 0,
      deleted: 0,
      zeroed: 0,
      warnings: 0,
    };
    s.files += o.files.length;
    s.records += o.result.received;
    s.created += o.result.created;
    s.updated += o.result.updated;
    s.deleted += o.result.deleted;
    s.zeroed += o.result.zeroed;
    s.warnings += o.result.warnings.length;
    byDataset.set(o.result.dataset, s);
  }
  const rows = [['dataset', 'files', 'records', 'created', 'updated', 'deleted', 'zeroed', 'warnings']];
  for (const [name, s] of byDataset)
    rows.push([name, s.files, s.records, s.created, s.updated, s.deleted, s.zeroed, s.warnings].map(String));
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) lines.push(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));

  for (const o of report.batches) {
    const files = o.files.map((f) => basename(f)).join(', ');
    const warnings = o.result?.warnings ?? o.warnings ?? [];
    // A file's own warnings name it (and the column); the records' name their file before their place.
    for (const w of warnings.slice(0, LISTED_WARNINGS))
      lines.push(`warning ${w.file === undefined ? `${files} ` : ''}${place(w)}: ${w.message}`);
    if (warnings.length > LISTED_WARNINGS)
      lines.push(`warning ${files}: … and ${warnings.length - LISTED_WARNINGS} more`);
    if (!o.error) continue;
    lines.push(`REJECTED ${o.files.join(', ')}${o.dataset ? ` (${o.dataset})` : ''}: ${o.error}`);
    for (const p of o.problems?.slice(0, LISTED_PROBLEMS) ?? []) lines.push(`  ${place(p)}: ${p.message}`);
    const listed = Math.min(o.problems?.length ?? 0, LISTED_PROBLEMS);
    if ((o.problemCount ?? 0) > listed)
      lines.push(`  … and ${(o.problemCount ?? 0) - listed}${o.problemCountIsAtLeast ? ' or' : ''} more`);
  }
  const rejectedFiles = report.batches.filter((o) => o.error).reduce((n, o) => n + o.files.length, 0);
  lines.push(
    `${count(report.records, 'record')} from ${whole(report.files - rejectedFiles)} of ` +
      `${count(report.files, 'file')} in ${duration(report.seconds * 1000)} ` +
      `(${perSecond(report.records, Math.max(report.seconds, 1e-3), 'records')})` +
      (report.rejected ? `; ${whole(rejectedFiles)} rejected` : ''),
  );
  return lines.join('\n');
}
