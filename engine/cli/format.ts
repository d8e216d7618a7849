/** How the CLI prints the request log and the lint for a person. */
import type { LintReport } from '../ingest/lint.js';
import type { RequestLogEntry } from '../model/request-log.js';
import { count, whole } from '../../common/format.js';

export function formatLogEntry(e: RequestLogEntry): string {
  const head =
    `${e.loggedAt} ${String(e.status)} ${e.method.padEnd(6)} ${e.path}${e.query ? `?${e.query}` : ''} ` +
    `${e.durationMs.toFixed(1)} ms`;
  const counts = [
    e.records !== undefined ? count(e.records, 'record') : '',
    e.errorCount ? count(e.errorCount, 'error') : '',
    e.warningCount ? count(e.warningCount, 'warning') : '',
  ]
    .filter(Boolean)
    .join(', ');
  const lines = [`${head}${counts ? ` — ${counts}` : ''}  [${e.requestId}]`];
  for (const p of e.errors.slice(0, 10))
    lines.push(`    error ${p.path}${p.recordId ? ` [${p.recordId}]` : ''}: ${p.message}`);
  for (const p of e.warnings.slice(0, 5)) lines.push(`    warning ${p.path}: ${p.message}`);
  return lines.join('\n');
}

export function formatLint(report: LintReport): string {
  const lines = [`feed lint at ${report.checkedAt}`];
  for (const f of report.findings) {
    lines.push(`${f.count === 0 ? 'ok  ' : 'FAIL'} ${f.rule} (${whole(f.count)}): ${f.title}`);
    if (f.count === 0) continue;
    lines.push(`     ${f.why}`);
    if (f.repeats) {
      const { groups, top } = f.repeats;
      lines.push(groups === 1 ? `     all ${whole(f.count)} say one thing:` : `     in ${count(groups, 'kind')}:`);
      for (const r of top) lines.push(`     = ${r.detail}: ${count(r.count, 'time')}, in ${r.datasets.join(', ')}`);
      if (groups > top.length) lines.push(`     = … and ${count(groups - top.length, 'other')}`);
    }
    for (const x of f.examples) {
      lines.push(`     - ${x.dataset} ${x.id}: ${x.detail}`);
      // A group's own records under it, one a line: a cell's description is too long to share one.
      for (const r of x.sample ?? []) lines.push(`         · ${r}`);
    }
    if (f.count > f.examples.length) lines.push(`     … and ${whole(f.count - f.examples.length)} more`);
  }
  return lines.join('\n');
}
