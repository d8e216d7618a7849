/**
 * Builds one dataset's API-shaped records from its CSV files: each row becomes a record of its file's level,
 * placed under its parent by the parent's key (a SKU under its item, a barcode under its SKU); rows that repeat a
 * parent's fields (one row per sales line) are grouped into one parent by its id. The records then go through the
 * same validation and ingest as JSON, and every problem is traced back to its file, row and column.
 */
import type { DatasetDef } from '../../model/datasets.js';
import { parseIsoMicros } from '../../model/datetime.js';
import { entityKey, type JsonRecord } from '../../model/fields.js';
import type { TablePlan } from '../../store/table-plan.js';
import { MAX_LISTED_ERRORS } from '../validate.js';
import type { Problem } from '../../model/problems.js';
import { BadCell, convertCell, type CellValue } from './convert.js';
import type { CsvTarget } from './levels.js';
import type { ResolvedColumns } from './resolve.js';
import { rowCells, type CsvTable } from './read.js';
import { differsMessage, firstTakenMessage, type Differing } from './repeated.js';

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
  /** Fields given a cell that could not be read: already a problem, so no other row differs from it. */
  bad?: Set<string>;
  /** Rows that gave only this record's fields (an order's row without a line), to name them if its fields differ. */
  passing?: Place[];
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
  /** Where every one of those problems is (JSON pointers), listed or not, and fields derived from a bad cell. */
  problemPaths: Set<string>;
  /** Records whose rows differ in a field, told once per file whose mapping takes the first row's value. */
  warnings: Problem[];
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
  file.resolved.columns.forEach((targets, index) => {
    for (const target of targets) byDepth[target.depth].push({ index, target });
  });
  const keyColumns = path.map((p, d) => {
    const cols = entityKey(p.entity).map((f) => byDepth[d].find((c) => c.target.field === f));
    return cols.every((c) => c !== undefined) ? (cols as Column[]) : undefined;
  });
  // The outermost ancestor from which every key down to the parent is given: rows are placed from there down.
  let start = own;
  while (start > 0 && keyColumns[start - 1]) start--;
  const fields = byDepth.map((cols) => cols.filter((c) => !c.target.key));
  return {
    file,
    own,
    byDepth,
    fields,
    keyColumns,
    start,
    derived: file.resolved.derived,
    placeable: own === 0 || keyColumns[own - 1] !== undefined,
  };
}
type Layout = ReturnType<typeof layout>;

/** Two values of one field alike: instants by the instant, whatever their spelling (10:15Z, 10:15:00.000Z). */
function alike(a: unknown, b: CellValue, target: CsvTarget): boolean {
  if (a === b) return true;
  if (target.type !== 'TIMESTAMP' || typeof a !== 'string' || typeof b !== 'string') return false;
  const instant = parseIsoMicros(a);
  return instant !== undefined && instant === parseIsoMicros(b);
}

const NO_CHILDREN: ReadonlyMap<string, Node[]> = new Map();
const NO_KEYS: ReadonlyMap<string, Map<string, Node>> = new Map();
const shownKey = (cols: Column[], cells: (string | null)[]) => cols.map((c) => cells[c.index]).join('/');

/** `listAll`: every problem in `problems`, not the first MAX_LISTED_ERRORS (for a file of them). */
export function assemble(
  dataset: DatasetDef,
  files: readonly MappedCsv[],
  options: { listAll?: boolean } = {},
): Assembled {
  const a = new Assembly(dataset, files);
  // Files from the top level down: a SKU's item is there before the SKU's row looks for it.
  for (const l of a.layouts) if (l.placeable) a.placeFile(l);
  const warnings = a.tellDiffering();
  return {
    body: { [dataset.envelope]: a.roots.map((n) => n.record) },
    records: a.roots.length,
    problems: a.problems(options.listAll === true),
    problemCount: a.pending.length,
    problemPaths: new Set([
      ...a.pending.map((p) => a.pathOf(p)),
      ...a.shadowed.map((x) => `${a.pointer(x.node)}/${x.field}`),
    ]),
    warnings,
    locate: (problem) => a.locate(problem),
  };
}

interface Pending {
  node?: Node;
  field?: string;
  place: Place;
  column?: string;
  message: string;
}

/** The records being built from a dataset's files, and what was found wrong on the way. */
class Assembly {
  readonly layouts: Layout[];
  readonly roots: Node[] = [];
  readonly pending: Pending[] = [];
  /** Fields derived from a cell already found bad or empty: the schema's finding there would tell it again. */
  readonly shadowed: { node: Node; field: string }[] = [];
  private readonly loadedTables: Set<string>;
  /** Records are found by key only at the levels some file places its rows under. */
  private readonly lookedUp: Set<number>;
  private readonly rootByKey = new Map<string, Node>();
  private readonly byDepthKey = new Map<number, Map<string, Node[]>>();
  /** Per record, each field a later row gave differently: the first row that did. */
  private readonly differing = new Map<Node, Map<string, { target: CsvTarget; place: Place }>>();

  constructor(
    private readonly dataset: DatasetDef,
    files: readonly MappedCsv[],
  ) {
    this.loadedTables = new Set(files.flatMap((f) => f.resolved.level.path.map((p) => p.table)));
    this.layouts = files
      .map(layout)
      .sort((a, b) => a.own - b.own || a.file.table.name.localeCompare(b.file.table.name));
    this.lookedUp = new Set(
      this.layouts.flatMap((l) => Array.from({ length: l.own - l.start }, (_, i) => l.start + i)),
    );
  }

  layoutOf(file: MappedCsv): Layout {
    return this.layouts.find((l) => l.file === file)!;
  }

  /** Places every row of a file whose rows can be placed (one that cannot is named among its file's problems). */
  placeFile(l: Layout): void {
    for (let i = 0; i < l.file.table.rows; i++) this.placeRow(l, i, rowCells(l.file.table, i));
  }

  /**
   * A row's records, from the outermost level its file gives every key of down to its own: each found by its key or
   * made, its fields filled; a row that cannot be placed is a problem.
   */
  private placeRow(l: Layout, i: number, cells: (string | null)[]): void {
    const { file, own, byDepth, fields, keyColumns, start, derived } = l;
    const path = file.resolved.level.path;
    const place: Place = { file, row: i + file.table.firstRow };
    let parent: Node | undefined;
    for (let d = start; d < own; d++) {
      const key = keyOf(keyColumns, d, cells);
      const of = keyColumns[d]![0].target.of;
      if (key === undefined) {
        const empty = keyColumns[d]!.find((c) => cells[c.index] === null)!;
        this.pending.push({
          place,
          column: header(place, empty),
          message: `${empty.target.field} is empty: the row cannot be placed under its ${of}`,
        });
        return;
      }
      let node: Node | undefined;
      if (parent) node = parent.byKey.get(path[d].arrayField!)!.get(key);
      else if (d === 0) node = this.rootByKey.get(key);
      else {
        const found = this.byDepthKey.get(d)?.get(key) ?? [];
        if (found.length > 1) {
          const above = entityKey(path[d - 1].entity).join(' + ');
          this.pending.push({
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
          const source = path[d].arrayField ?? this.dataset.name;
          this.pending.push({
            place,
            column: header(place, keyColumns[d]![0]),
            message:
              `${of} "${shownKey(keyColumns[d]!, cells)}" is not loaded with this file, ` +
              `so the row has nothing to belong to; load its file (${source}.csv) with it`,
          });
          return;
        }
        node = this.create(path[d], d, place, parent, key);
        this.fill(node, keyColumns[d]!, cells, place);
      }
      this.fill(node, fields[d], cells, place);
      parent = node;
    }
    // A row with nothing of its own level gives only its parent (an order without lines).
    if (own > 0 && byDepth[own].every((c) => cells[c.index] === null)) {
      if (parent && parent.place !== place) (parent.passing ??= []).push(place);
      return;
    }
    const node = this.create(path[own], own, place, parent, keyOf(keyColumns, own, cells));
    this.fill(node, byDepth[own], cells, place);
    if (derived.length) this.derive(node, derived);
  }

  private create(plan: TablePlan, depth: number, place: Place, parent: Node | undefined, key: string | undefined) {
    const record: JsonRecord = {};
    for (const child of plan.children) {
      // A required array (a sale's lines) is always there; an optional one when a file of it is loaded.
      if (plan.entity.required?.includes(child.arrayField!) || this.loadedTables.has(child.table))
        record[child.arrayField!] = [];
    }
    const siblings = parent ? parent.children.get(plan.arrayField!)! : this.roots;
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
    if (key !== undefined && this.lookedUp.has(depth)) {
      const index = parent ? parent.byKey.get(plan.arrayField!)! : this.rootByKey;
      if (!index.has(key)) index.set(key, node);
      if (depth > 0) {
        let list = this.byDepthKey.get(depth);
        if (!list) this.byDepthKey.set(depth, (list = new Map()));
        list.set(key, [...(list.get(key) ?? []), node]);
      }
    }
    return node;
  }

  /** Sets a row's cells for the fields of one record; a field another row gave differently is noted. */
  private fill(node: Node, cols: Column[], cells: (string | null)[], place: Place): void {
    const format = place.file.resolved.format;
    let badCells: Set<string> | undefined;
    for (const c of cols) {
      const text = cells[c.index];
      if (text === null) continue;
      const field = c.target.field;
      const converted = convertCell(text, c.target.type, format);
      const bad = converted instanceof BadCell;
      // A bad cell keeps its text, so the schema's check of that field finds it again and is not reported twice.
      const value = bad ? converted.text : converted;
      if (bad) {
        // A column that fills several fields of one type is one bad cell, told once.
        const told = `${c.index}:${c.target.type}`;
        if (badCells?.has(told)) this.shadowed.push({ node, field });
        else this.pending.push({ node, field, place, column: header(place, c), message: converted.problem });
        (badCells ??= new Set()).add(told);
        (node.bad ??= new Set()).add(field);
      }
      const before = node.record[field];
      if (before === undefined) {
        node.record[field] = value;
        if (place !== node.place) (node.fieldPlaces ??= new Map()).set(field, place);
      } else if (!bad && !node.bad?.has(field) && !alike(before, value, c.target)) {
        let fields = this.differing.get(node);
        if (!fields) this.differing.set(node, (fields = new Map()));
        if (!fields.has(field)) fields.set(field, { target: c.target, place });
      }
    }
  }

  /** A row's record given the fields its file has no column for, by their defaults (model/field-defaults.ts). */
  private derive(node: Node, derived: Layout['derived']): void {
    for (const d of derived) {
      const source = d.from ? node.record[d.from.field] : d.value;
      if (source !== undefined) node.record[d.target.field] = source;
      if (source === undefined || (d.from && node.bad?.has(d.from.field)))
        this.shadowed.push({ node, field: d.target.field });
    }
  }

  /**
   * Each record whose rows gave a field differently: a problem at the row that differed first, or, where its file's
   * mapping takes the first row's value, one warning per file. Answers the warnings.
   */
  tellDiffering(): Problem[] {
    const warnings: Problem[] = [];
    const takenFirst = new Map<MappedCsv, Differing[]>();
    for (const [node, fields] of this.differing) {
      for (const [field, { target, place }] of fields) {
        const told: Differing = {
          of: target.of,
          id: entityKey(node.plan.entity)
            .map((k) => node.record[k])
            .join('/'),
          field,
          values: valuesByRow(node, target, (file) => this.layoutOf(file)),
        };
        if (place.file.resolved.repeated === 'first')
          takenFirst.set(place.file, [...(takenFirst.get(place.file) ?? []), told]);
        else
          this.pending.push({
            node,
            field,
            place,
            column: header(
              place,
              this.layoutOf(place.file).byDepth[node.depth].find((c) => c.target === target)!,
            ),
            message: differsMessage(told, place.file.table.name),
          });
      }
    }
    for (const [file, all] of takenFirst)
      warnings.push({ path: '', file: file.table.name, message: firstTakenMessage(all, file.table.name) });
    return warnings;
  }

  pointer(node: Node): string {
    return node.parent
      ? `${this.pointer(node.parent)}/${node.plan.arrayField}/${node.index}`
      : `/${this.dataset.envelope}/${node.index}`;
  }

  pathOf(p: Pending): string {
    return p.node ? this.pointer(p.node) + (p.field ? `/${p.field}` : '') : '';
  }

  private recordId(node: Node): string | undefined {
    let root = node;
    while (root.parent) root = root.parent;
    const parts = this.dataset.key.map((k) => root.record[k]).filter((v) => v !== undefined);
    return parts.length ? parts.join('/') : undefined;
  }

  /** The problems as told, each at its file, row and column: all of them, or the first MAX_LISTED_ERRORS. */
  problems(listAll: boolean): Problem[] {
    const listed = listAll ? this.pending : this.pending.slice(0, MAX_LISTED_ERRORS);
    return listed.map((p) => {
      const id = p.node ? this.recordId(p.node) : undefined;
      return {
        path: this.pathOf(p),
        ...(id === undefined ? {} : { recordId: id }),
        message: p.message,
        file: p.place.file.table.name,
        row: p.place.row,
        ...(p.column === undefined ? {} : { column: p.column }),
      };
    });
  }

  /** The record a pointer leads to, walking the arrays it names; the rest of the pointer is a field of it. */
  locate(problem: Problem): Problem {
    if (problem.file !== undefined) return problem;
    const parts = problem.path.split('/').slice(1);
    let node: Node | undefined;
    let at = 0;
    for (
      let list: Node[] | undefined = parts[0] === this.dataset.envelope ? this.roots : undefined;
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
    const { byDepth, derived } = this.layoutOf(place.file);
    // A field filled by its default is told at the column it was filled from.
    const given = derived.find((d) => d.target.field === field)?.from?.field ?? field;
    const c = byDepth[node.depth].find((x) => x.target.field === given);
    return { ...problem, file: place.file.table.name, row: place.row, ...(c ? { column: header(place, c) } : {}) };
  }
}

const header = (place: Place, c: Column) => place.file.table.headers[c.index];

/** A row's key at depth d: its key columns' cells, when none is empty. */
function keyOf(keyColumns: Layout['keyColumns'], d: number, cells: (string | null)[]): string | undefined {
  const cols = keyColumns[d];
  if (!cols) return undefined;
  const values = cols.map((c) => cells[c.index]);
  return values.every((v) => v !== null) ? values.join('\u0000') : undefined;
}

/**
 * The values a record's rows give one field, each with its rows, in the order of the rows: the record's own row,
 * those that gave only its fields, and those of the records below it, each read again from its file.
 */
function valuesByRow(node: Node, target: CsvTarget, layoutOf: (file: MappedCsv) => Layout): Differing['values'] {
  const places = new Set<Place>([node.place, ...(node.passing ?? [])]);
  const below = (n: Node) => {
    for (const list of n.children.values())
      for (const child of list) {
        places.add(child.place);
        for (const p of child.passing ?? []) places.add(p);
        below(child);
      }
  };
  below(node);
  const values = new Map<string, Differing['values'][number]>();
  for (const place of places) {
    const c = layoutOf(place.file).byDepth[node.depth].find((x) => x.target.field === target.field);
    const text = c && place.file.table.columns[c.index][place.row - place.file.table.firstRow];
    if (text === undefined || text === null) continue;
    const value = convertCell(text, target.type, place.file.resolved.format);
    if (value instanceof BadCell) continue;
    const instant = target.type === 'TIMESTAMP' ? parseIsoMicros(String(value)) : undefined;
    const key = instant === undefined ? String(value) : `@${instant}`;
    let entry = values.get(key);
    if (!entry) values.set(key, (entry = { text: String(value), rows: [] }));
    entry.rows.push({ file: place.file.table.name, row: place.row });
  }
  for (const v of values.values()) v.rows.sort((a, b) => a.file.localeCompare(b.file) || a.row - b.row);
  return [...values.values()].sort((a, b) => a.rows[0].row - b.rows[0].row);
}
