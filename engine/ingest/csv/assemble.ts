/**
 * Builds one dataset's API-shaped records from its CSV files: each row becomes a record of its file's level,
 * placed under its parent by the parent's key (a SKU under its item, a barcode under its SKU); rows that repeat a
 * parent's fields (one row per sales line) are grouped into one parent by its id. The records then go through the
 * same validation and ingest as JSON, and every problem is traced back to its file, row and column.
 */
import type { DatasetDef } from '../../model/datasets.js';
import { entityKey, type JsonRecord } from '../../model/fields.js';
import type { TablePlan } from '../../store/table-plan.js';
import { MAX_LISTED_ERRORS } from '../validate.js';
import { clip, type Problem } from '../problems.js';
import { BadCell, convertCell } from './convert.js';
import type { CsvTarget } from './levels.js';
import type { ResolvedColumns } from './mapping.js';
import { rowCells, type CsvTable } from './read.js';

/** A file read and mapped. */
export interface MappedCsv {
  table: CsvTable;
  resolved: ResolvedColumns;
}

interface Place {
  file: MappedCsv;
  /** Row number in the file; the header is row 1. */
  row: number;
}

interface Node {
  record: JsonRecord;
  plan: TablePlan;
  depth: number;
  place: Place;
  parent?: Node;
  /** Position in the parent's array (or among the dataset's records). */
  index: number;
  /** Fields a later row gave (a parent's field first left empty): where each came from. */
  fieldPlaces?: Map<string, Place>;
  children: ReadonlyMap<string, Node[]>;
  /** Each array's children by key text, to find a parent by its key. */
  byKey: ReadonlyMap<string, Map<string, Node>>;
}

export interface Assembled {
  /** The request body the records make: `{items: [...]}`. */
  body: JsonRecord;
  records: number;
  /** Cells that could not be converted and rows that could not be placed; none means the body is ready to validate. */
  problems: Problem[];
  problemCount: number;
  /** Where every one of those problems is (JSON pointers), listed or not. */
  problemPaths: Set<string>;
  /** The file, row and column a problem of the body (a JSON pointer into it) comes from. */
  locate(problem: Problem): Problem;
}

interface Column {
  index: number;
  target: CsvTarget;
}

/** The columns of a file by the depth of the field they fill, and how its rows find their parent. */
function layout(file: MappedCsv) {
  const path = file.resolved.level.path;
  const own = path.length - 1;
  const byDepth: Column[][] = path.map(() => []);
  file.resolved.columns.forEach((target, index) => {
    if (target) byDepth[target.depth].push({ index, target });
  });
  const keyColumns = path.map((p, d) => {
    const cols = entityKey(p.entity).map((f) => byDepth[d].find((c) => c.target.field === f));
    return cols.every((c) => c !== undefined) ? (cols as Column[]) : undefined;
  });
  // The outermost ancestor from which every key down to the parent is given: rows are placed from there down.
  let start = own;
  while (start > 0 && keyColumns[start - 1]) start--;
  const fields = byDepth.map((cols) => cols.filter((c) => !c.target.key));
  return { file, own, byDepth, fields, keyColumns, start, placeable: own === 0 || keyColumns[own - 1] !== undefined };
}

const NO_CHILDREN: ReadonlyMap<string, Node[]> = new Map();
const NO_KEYS: ReadonlyMap<string, Map<string, Node>> = new Map();
const shownKey = (cols: Column[], cells: (string | null)[]) => cols.map((c) => cells[c.index]).join('/');

export function assemble(dataset: DatasetDef, files: readonly MappedCsv[]): Assembled {
  const loadedTables = new Set(files.flatMap((f) => f.resolved.level.path.map((p) => p.table)));
  // Files from the top level down: a SKU's item is there before the SKU's row looks for it.
  const layouts = files.map(layout).sort((a, b) => a.own - b.own || a.file.table.name.localeCompare(b.file.table.name));
  // Records are found by key only at the levels some file places its rows under.
  const lookedUp = new Set(layouts.flatMap((l) => Array.from({ length: l.own - l.start }, (_, i) => l.start + i)));
  const roots: Node[] = [];
  const rootByKey = new Map<string, Node>();
  const byDepthKey = new Map<number, Map<string, Node[]>>();
  const pending: { node?: Node; field?: string; place: Place; column?: string; message: string }[] = [];
  const header = (place: Place, c: Column) => place.file.table.headers[c.index];

  const create = (
    plan: TablePlan,
    depth: number,
    place: Place,
    parent: Node | undefined,
    key: string | undefined,
  ): Node => {
    const record: JsonRecord = {};
    for (const child of plan.children) {
      // A required array (a sale's lines) is always there; an optional one when a file of it is loaded.
      if (plan.entity.required?.includes(child.arrayField!) || loadedTables.has(child.table))
        record[child.arrayField!] = [];
    }
    const siblings = parent ? parent.children.get(plan.arrayField!)! : roots;
    // Most records (sales lines, barcodes) have no children: they share one empty map instead of making their own.
    const leaf = plan.children.length === 0;
    const node: Node = {
      record,
      plan,
      depth,
      place,
      parent,
      index: siblings.length,
      children: leaf ? NO_CHILDREN : new Map(plan.children.map((c) => [c.arrayField!, []])),
      byKey: leaf ? NO_KEYS : new Map(plan.children.map((c) => [c.arrayField!, new Map()])),
    };
    siblings.push(node);
    if (parent) (parent.record[plan.arrayField!] as JsonRecord[]).push(record);
    if (key !== undefined && lookedUp.has(depth)) {
      const index = parent ? parent.byKey.get(plan.arrayField!)! : rootByKey;
      if (!index.has(key)) index.set(key, node);
      if (depth > 0) {
        let list = byDepthKey.get(depth);
        if (!list) byDepthKey.set(depth, (list = new Map()));
        list.set(key, [...(list.get(key) ?? []), node]);
      }
    }
    return node;
  };

  /** Sets a row's cells for the fields of one record; a field another row gave differently is a problem. */
  const fill = (node: Node, cols: Column[], cells: (string | null)[], place: Place) => {
    for (const c of cols) {
      const text = cells[c.index];
      if (text === null) continue;
      const field = c.target.field;
      const converted = convertCell(text, c.target.type, place.file.table.decimalComma);
      const bad = converted instanceof BadCell;
      // A bad cell keeps its text, so the schema's check of that field finds it again and is not reported twice.
      const value = bad ? converted.text : converted;
      if (bad) pending.push({ node, field, place, column: header(place, c), message: converted.problem });
      const before = node.record[field];
      if (before === undefined) {
        node.record[field] = value;
        if (place !== node.place) (node.fieldPlaces ??= new Map()).set(field, place);
      } else if (before !== value && !bad) {
        const from = node.fieldPlaces?.get(field) ?? node.place;
        pending.push({
          node,
          field,
          place,
          column: header(place, c),
          message:
            `${field} is "${clip(String(value), 60)}" here but "${clip(String(before), 60)}" ` +
            `in ${from.file.table.name} row ${from.row}, ` +
            `for the same ${c.target.of}: one ${c.target.of} has one ${field}`,
        });
      }
    }
  };

  for (const { file, own, byDepth, fields, keyColumns, start, placeable } of layouts) {
    // A file that cannot place its rows is already named among the file's problems.
    if (!placeable) continue;
    const path = file.resolved.level.path;
    const keyOf = (d: number, cells: (string | null)[]) => {
      const cols = keyColumns[d];
      if (!cols) return undefined;
      const values = cols.map((c) => cells[c.index]);
      return values.every((v) => v !== null) ? values.join('\u0000') : undefined;
    };
    const placeRow = (i: number, cells: (string | null)[]) => {
      const place: Place = { file, row: i + file.table.firstRow };
      let parent: Node | undefined;
      for (let d = start; d < own; d++) {
        const key = keyOf(d, cells);
        const of = keyColumns[d]![0].target.of;
        if (key === undefined) {
          const empty = keyColumns[d]!.find((c) => cells[c.index] === null)!;
          pending.push({
            place,
            column: header(place, empty),
            message: `${empty.target.field} is empty: the row cannot be placed under its ${of}`,
          });
          return;
        }
        let node: Node | undefined;
        if (parent) node = parent.byKey.get(path[d].arrayField!)!.get(key);
        else if (d === 0) node = rootByKey.get(key);
        else {
          const found = byDepthKey.get(d)?.get(key) ?? [];
          if (found.length > 1) {
            const above = entityKey(path[d - 1].entity).join(' + ');
            pending.push({
              place,
              message:
                `${of} "${shownKey(keyColumns[d]!, cells)}" is in ${found.length} places; ` +
                `add a column with its ${above} to tell which`,
            });
            return;
          }
          node = found[0];
        }
        if (!node) {
          const flattened = fields[d].length > 0;
          if (!flattened || (d > 0 && !parent)) {
            const source = path[d].arrayField ?? dataset.name;
            pending.push({
              place,
              column: header(place, keyColumns[d]![0]),
              message:
                `${of} "${shownKey(keyColumns[d]!, cells)}" is not loaded with this file, ` +
                `so the row has nothing to belong to; load its file (${source}.csv) with it`,
            });
            return;
          }
          node = create(path[d], d, place, parent, key);
          fill(node, keyColumns[d]!, cells, place);
        }
        fill(node, fields[d], cells, place);
        parent = node;
      }
      // A row with nothing of its own level gives only its parent (an order without lines).
      if (own > 0 && byDepth[own].every((c) => cells[c.index] === null)) return;
      const node = create(path[own], own, place, parent, keyOf(own, cells));
      fill(node, byDepth[own], cells, place);
    };
    for (let i = 0; i < file.table.rows; i++) placeRow(i, rowCells(file.table, i));
  }

  const pointer = (node: Node): string =>
    node.parent
      ? `${pointer(node.parent)}/${node.plan.arrayField}/${node.index}`
      : `/${dataset.envelope}/${node.index}`;
  const rootOf = (node: Node): Node => (node.parent ? rootOf(node.parent) : node);
  const recordId = (node: Node) => {
    const r = rootOf(node).record;
    const parts = dataset.key.map((k) => r[k]).filter((v) => v !== undefined);
    return parts.length ? parts.join('/') : undefined;
  };
  const pathOf = (p: (typeof pending)[number]) => (p.node ? pointer(p.node) + (p.field ? `/${p.field}` : '') : '');
  const problems: Problem[] = pending.slice(0, MAX_LISTED_ERRORS).map((p) => {
    const id = p.node ? recordId(p.node) : undefined;
    return {
      path: pathOf(p),
      ...(id === undefined ? {} : { recordId: id }),
      message: p.message,
      file: p.place.file.table.name,
      row: p.place.row,
      ...(p.column === undefined ? {} : { column: p.column }),
    };
  });

  /** The record a pointer leads to, walking the arrays it names; the rest of the pointer is a field of it. */
  const locate = (problem: Problem): Problem => {
    if (problem.file !== undefined) return problem;
    const parts = problem.path.split('/').slice(1);
    let node: Node | undefined;
    let at = 0;
    for (
      let list: Node[] | undefined = parts[0] === dataset.envelope ? roots : undefined;
      list && at + 1 < parts.length;
      at += 2
    ) {
      const next = list[Number(parts[at + 1])];
      if (!next || !/^\d+$/.test(parts[at + 1])) break;
      node = next;
      list = parts[at + 2] === undefined ? undefined : node.children.get(parts[at + 2]);
    }
    if (!node) return problem;
    const field = parts[at];
    const place = (field !== undefined && node.fieldPlaces?.get(field)) || node.place;
    const c = layouts.find((l) => l.file === place.file)!.byDepth[node.depth].find((x) => x.target.field === field);
    return { ...problem, file: place.file.table.name, row: place.row, ...(c ? { column: header(place, c) } : {}) };
  };

  return {
    body: { [dataset.envelope]: roots.map((n) => n.record) },
    records: roots.length,
    problems,
    problemCount: pending.length,
    problemPaths: new Set(pending.map(pathOf)),
    locate,
  };
}
