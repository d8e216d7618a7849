import type { PickedFile } from '../client';

/** The mapping step reads only the head of a CSV file: its header and first rows. */
const PREVIEW_CHARS = 64 * 1024;

const isCsv = (name: string) => /\.csv$/i.test(name);
/** Parquet and Arrow IPC files: one level's rows, mapped like CSV, sent as their bytes. */
const isColumnar = (name: string) => /\.(parquet|arrow|feather|ipc)$/i.test(name);
/** A file of rows, mapped to a level's fields: CSV, Parquet or Arrow. Any other file picked is API-shaped JSON. */
export const isTable = (name: string) => isCsv(name) || isColumnar(name);

/** A binary file's bytes as base64, a piece at a time (one call over megabytes would overflow the stack). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The head of a file cut at a line end, so its last row is whole. */
export function head(text: string): string {
  if (text.length <= PREVIEW_CHARS) return text;
  const end = text.lastIndexOf('\n', PREVIEW_CHARS);
  return text.slice(0, end > 0 ? end + 1 : PREVIEW_CHARS);
}

/**
 * The files picked or dropped that the workbench loads (JSON and tables), read for sending, in order of their names
 * (a folder's by their paths in it).
 */
export async function readPicked(list: FileList | readonly File[] | null): Promise<PickedFile[]> {
  const chosen = [...(list ?? [])].filter((f) => /\.json$/i.test(f.name) || isTable(f.name));
  const picked = await Promise.all(
    chosen.map(async (f): Promise<PickedFile> => {
      const name = f.webkitRelativePath || f.name;
      if (isColumnar(f.name)) return { name, base64: await base64Of(f) };
      // A file that is not UTF-8 goes as its bytes: read as text here, its odd bytes would become "�" unseen,
      // where the service names them and reads the encoding the mapping declares.
      try {
        return { name, text: new TextDecoder('utf-8', { fatal: true }).decode(await f.arrayBuffer()) };
      } catch {
        return { name, base64: await base64Of(f) };
      }
    }),
  );
  return picked.sort((a, b) => a.name.localeCompare(b.name));
}
