/**
 * Output: one file per request body, records appended as pre-serialised JSON text and flushed whenever a file is
 * full, so only the file being filled is ever in memory.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Sink {
  write(name: string, content: string): void;
}

export class MemorySink implements Sink {
  readonly files = new Map<string, string>();
  write(name: string, content: string): void {
    this.files.set(name, content);
  }
}

/** The endpoints whose files the generator writes; a re-run clears only these from the folder. */
export const ENDPOINT_FILES = new RegExp(
  '^(Brands|Seasons|Collections|Themes|Colors|Sizes|MerchandiseCategories|Vendors|Currencies|Locations|' +
    'Items|PurchaseOrders|Sales|Stock|StockMutations)(-\\d{4})?\\.json$',
);

/** `clean`: remove earlier generator files first (the data folder; the truth folder has fixed names). */
export class DirSink implements Sink {
  constructor(
    readonly dir: string,
    clean = true,
  ) {
    mkdirSync(dir, { recursive: true });
    // A smaller run after a bigger one would otherwise leave stale Sales-0099.json files behind.
    if (clean) for (const f of readdirSync(dir)) if (ENDPOINT_FILES.test(f)) rmSync(join(dir, f));
  }
  write(name: string, content: string): void {
    writeFileSync(join(this.dir, name), content);
  }
}

export interface FileStat {
  name: string;
  endpoint: string;
  records: number;
  bytes: number;
}

export class Output {
  readonly files: FileStat[] = [];
  constructor(readonly sink: Sink) {}

  write(name: string, endpoint: string, records: number, content: string): void {
    this.sink.write(name, content);
    this.files.push({ name, endpoint, records, bytes: Buffer.byteLength(content) });
  }

  /** A whole small body at once (master data). */
  writeBody(endpoint: string, envelope: string, records: readonly unknown[]): void {
    const w = new BatchWriter(this, endpoint, envelope, Infinity, 'single');
    for (const r of records) w.add(JSON.stringify(r));
    w.finish();
  }

  bytes(): number {
    return this.files.reduce((a, f) => a + f.bytes, 0);
  }
}

/** Characters a streamed file may hold: well inside the service's request body limits, whatever the records. */
export const MAX_FILE_CHARS = 16_000_000;

/**
 * `numbered`: always `Sales-0001.json`…; `single`: `Items.json` while everything fits one call, numbered once
 * it does not (the spec's recommended maximum per call decides). `maxChars` starts a new file before one would
 * grow past it (large records, such as a day's sale of a whole basics range).
 */
export class BatchWriter {
  private parts: string[] = [];
  private chars = 0;
  private fileNo = 0;

  constructor(
    private readonly out: Output,
    readonly endpoint: string,
    private readonly envelope: string,
    private readonly perFile: number,
    private readonly naming: 'numbered' | 'single',
    private readonly maxChars = Infinity,
  ) {}

  add(json: string): void {
    if (this.parts.length >= this.perFile || (this.parts.length > 0 && this.chars + json.length + 1 > this.maxChars))
      this.flush(false);
    this.parts.push(json);
    this.chars += json.length + 1;
  }

  private flush(last: boolean): void {
    this.fileNo++;
    const single = this.naming === 'single' && last && this.fileNo === 1;
    const name = single ? `${this.endpoint}.json` : `${this.endpoint}-${String(this.fileNo).padStart(4, '0')}.json`;
    this.out.write(name, this.endpoint, this.parts.length, `{"${this.envelope}":[${this.parts.join(',')}]}`);
    this.parts = [];
    this.chars = 0;
  }

  /** Writes what is left; an endpoint with no records still gets one (empty) file, so the file set is stable. */
  finish(): void {
    if (this.parts.length > 0 || this.fileNo === 0) this.flush(true);
  }
}
