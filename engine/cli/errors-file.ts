/**
 * `workbench load --errors FILE`: every problem of every refused batch as CSV, one row each, for a spreadsheet or a
 * script to work through. The console shows the first few; a file of an export gone wrong may hold thousands.
 */
import { writeFileSync } from 'node:fs';
import { PROBLEM_COLUMNS, type Problem } from '../model/problems.js';
import type { LoadReport } from '../service/file-load.js';

const cell = (v: string | number | undefined) => {
  const s = v === undefined ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The refused batches' problems as rows; a batch refused without any (not JSON, skipped) as one row of its reason. */
export function problemRows(report: LoadReport): Problem[] {
  return report.batches.flatMap((o) => {
    if (!o.error) return [];
    const files = o.files.join(', ');
    if (!o.problems?.length) return [{ file: files, path: '', message: o.error }];
    return o.problems.map((p) => ({ ...p, file: p.file ?? files }));
  });
}

/** Writes the file and says where, and how many rows it holds. */
export function writeErrorsFile(path: string, report: LoadReport): string {
  const rows = problemRows(report);
  const lines = [PROBLEM_COLUMNS.join(','), ...rows.map((p) => PROBLEM_COLUMNS.map((c) => cell(p[c])).join(','))];
  writeFileSync(path, `${lines.join('\r\n')}\r\n`);
  return rows.length
    ? `every problem written to ${path} (${rows.length.toLocaleString('en')} row${rows.length === 1 ? '' : 's'})`
    : `no problems: ${path} holds the header alone`;
}
