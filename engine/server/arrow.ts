/**
 * Large tables as Arrow IPC streams, for a client that asks for them (`Accept: application/vnd.apache.arrow.stream`):
 * columns, not objects, so 100,000 transfer lines cross as a fraction of their JSON and decode without parsing.
 * Columns that repeat a few values (types, locations, SKUs) are dictionary-encoded; nested values (a proposal's
 * details) travel as JSON text in their column.
 */
import type { FastifyRequest } from 'fastify';
import { Dictionary, Float64, Int32, Table, tableToIPC, Utf8, vectorFromArray, type Vector } from 'apache-arrow';

/** The media type, as a type too: a client that may take engine code as types only spells it checked against this. */
export type ArrowStream = 'application/vnd.apache.arrow.stream';
export const ARROW_STREAM: ArrowStream = 'application/vnd.apache.arrow.stream';
/** How many rows a paged table holds in all, beside a page sent as Arrow. */
export const TOTAL_COUNT_HEADER = 'x-total-count' as const;

/** The client named the Arrow stream among the types it accepts. */
export function wantsArrow(req: FastifyRequest): boolean {
  const accept = String(req.headers.accept ?? '').toLowerCase();
  return accept.includes(ARROW_STREAM);
}

export type ColumnKind = 'text' | 'category' | 'number' | 'json';

/** Rows of flat records as one Arrow stream, each named column with its kind; absent values are nulls. */
export function rowsToArrow<T extends object>(rows: readonly T[], columns: Record<string, ColumnKind>): Uint8Array {
  const vectors: Record<string, Vector> = {};
  for (const [name, kind] of Object.entries(columns)) {
    const values = rows.map((r) => (r as Record<string, unknown>)[name] ?? null);
    vectors[name] =
      kind === 'number'
        ? vectorFromArray(values as (number | null)[], new Float64())
        : kind === 'category'
          ? vectorFromArray(values as (string | null)[], new Dictionary(new Utf8(), new Int32()))
          : vectorFromArray(
              kind === 'json'
                ? values.map((v) => (v === null ? null : JSON.stringify(v)))
                : (values as (string | null)[]),
              new Utf8(),
            );
  }
  return tableToIPC(new Table(vectors), 'stream');
}

/** A proposal's fields as Arrow columns (the transfers list). */
export const PROPOSAL_COLUMNS: Record<string, ColumnKind> = {
  referenceId: 'text',
  runId: 'category',
  transferType: 'category',
  fromLocationId: 'category',
  toLocationId: 'category',
  skuId: 'category',
  styleId: 'category',
  quantity: 'number',
  reason: 'text',
  details: 'json',
  approvalBatchId: 'category',
  confirmedDateTime: 'category',
};
