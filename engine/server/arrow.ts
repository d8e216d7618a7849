/**
 * Large tables as Arrow IPC streams, for a client that asks for them (`Accept: application/vnd.apache.arrow.stream`):
 * columns, not objects, so 100,000 transfer lines cross as a fraction of their JSON and decode without parsing.
 * Columns that repeat a few values (types, locations, SKUs) are dictionary-encoded. A nested record's fields are
 * columns of their own, named by their path (`simulated.fillRate`); a value kept whole (a proposal's details)
 * travels as JSON text, its column named in the schema's metadata. A client rebuilds the rows from these rules
 * alone (src-renderer/src/arrow-rows.ts): a null text is an absent field, a null number stays null.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
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

/** The schema metadata key naming the columns that hold JSON text. */
export const JSON_COLUMNS_KEY = 'workbench.json-columns';

/** Reads a column's field from a row by its path. */
function reader(name: string): (row: object) => unknown {
  const path = name.split('.');
  if (path.length === 1) return (row) => (row as Record<string, unknown>)[name];
  return (row) => path.reduce<unknown>((o, k) => (o as Record<string, unknown> | null | undefined)?.[k], row);
}

/** Rows as one Arrow stream, each column (a field's path) with its kind; absent values are nulls. */
export function rowsToArrow<T extends object>(rows: readonly T[], columns: Record<string, ColumnKind>): Uint8Array {
  const vectors: Record<string, Vector> = {};
  for (const [name, kind] of Object.entries(columns)) {
    const read = reader(name);
    const values = rows.map((r) => read(r) ?? null);
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
  const table = new Table(vectors);
  const json = Object.keys(columns).filter((c) => columns[c] === 'json');
  if (json.length) table.schema.metadata.set(JSON_COLUMNS_KEY, json.join(','));
  return tableToIPC(table, 'stream');
}

/** The columns of records shaped like `row`: a nested record's fields by path, text and numbers by their kind. */
export function columnsOf(row: object, prefix = ''): Record<string, ColumnKind> {
  const out: Record<string, ColumnKind> = {};
  for (const [key, v] of Object.entries(row)) {
    const name = prefix + key;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, columnsOf(v, `${name}.`));
    else out[name] = typeof v === 'string' ? 'text' : typeof v === 'number' || v === null ? 'number' : 'json';
  }
  return out;
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

/** How a route's answer travels as Arrow: the field of the answer that holds its rows, and their columns. */
export interface ArrowTable {
  rows: string;
  /** Default: read off the first row (`columnsOf`). */
  columns?: Record<string, ColumnKind>;
}

/**
 * A JSON answer sent as its table's Arrow stream instead; the row total (the answer's `total`, else its rows) rides
 * in a header.
 */
export function sendArrow(reply: FastifyReply, answer: unknown, table: ArrowTable): FastifyReply {
  const { [table.rows]: rows, total } = answer as Record<string, unknown>;
  const list = rows as object[];
  const columns = table.columns ?? (list.length ? columnsOf(list[0]) : {});
  return reply
    .type(ARROW_STREAM)
    .header(TOTAL_COUNT_HEADER, String(typeof total === 'number' ? total : list.length))
    .send(Buffer.from(rowsToArrow(list, columns)));
}
