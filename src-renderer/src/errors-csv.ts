import type { BatchOutcome, Problem, ProblemColumns } from './client';
import { toCsv } from './csv';

/** The command line's columns: a change to them in the engine fails this file's type check. */
const COLUMNS: ProblemColumns = ['file', 'row', 'column', 'path', 'recordId', 'message'];

/**
 * A refused batch's problems as the errors file `workbench load --errors` writes, one row each; a batch refused
 * without any (not JSON, skipped) as one row of its reason.
 */
export function errorsCsv(o: BatchOutcome): string {
  const files = o.files.join(', ');
  const rows: Problem[] = o.problems?.length
    ? o.problems.map((p) => ({ ...p, file: p.file ?? files }))
    : [{ file: files, path: '', message: o.error ?? '' }];
  return toCsv(
    [...COLUMNS],
    rows.map((p) => COLUMNS.map((c) => p[c])),
  );
}
