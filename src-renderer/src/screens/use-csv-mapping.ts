import { useEffect, useRef, useState } from 'react';
import type { AdminClient, CsvMapping as Mapping, CsvPreview, PickedFile } from '../client';
import type { Guessed } from './csv-mapping-fields';
import type { FileOptions } from './CsvFileOptions';
import { head, isTable } from './picked-files';

/**
 * The mapping of the tables picked, with their preview read again as it changes: the level each file holds, the
 * field each column loads into, how it writes dates and decimals. What the headers most likely mean is proposed
 * once per preview and marked as a guess until the user chooses otherwise.
 */
export function useCsvMapping(client: AdminClient, files: PickedFile[]) {
  const [mapping, setMapping] = useState<Mapping>({});
  const [preview, setPreview] = useState<CsvPreview>();
  const [previewError, setPreviewError] = useState<string>();
  /** What the mapping holds by a guess from the headers, per file, until the user changes it. */
  const [guessed, setGuessed] = useState<Record<string, Guessed>>({});

  useEffect(() => {
    // A CSV file's head is enough for its first rows; a columnar file is read whole to find them.
    const csv = files
      .filter((f) => isTable(f.name))
      .map((f) => ('text' in f ? { name: f.name, text: head(f.text) } : f));
    setPreviewError(undefined);
    if (csv.length === 0) {
      setPreview(undefined);
      return;
    }
    let current = true;
    client.call('POST /load/preview', { body: { files: csv, mapping } }).then(
      (p) => current && setPreview(p),
      (e: Error) => current && setPreviewError(e.message),
    );
    return () => {
      current = false;
    };
  }, [client, files, mapping]);

  const change = (file: string, next: (m: Mapping[string]) => Mapping[string]) =>
    setMapping((m) => ({ ...m, [file]: next(m[file] ?? {}) }));

  // What the headers most likely mean goes into the mapping, marked as a guess: the check and the load then meet
  // what the screen shows, and *Save mapping file* writes it. Once per preview, against the mapping as it stands
  // then (the mapping changing does not propose again: the user's choices stand).
  const mappingNow = useRef(mapping);
  mappingNow.current = mapping;
  useEffect(() => {
    const mapping = mappingNow.current;
    const proposals = (preview?.files ?? []).filter(
      (f) => (f.guessedLevel && !mapping[f.name]?.level) || f.guesses.length > 0,
    );
    if (proposals.length === 0) return;
    setGuessed((g) => guessesNoted(g, proposals, mapping));
    setMapping((m) => guessesTaken(m, proposals));
  }, [preview]);
  /** The user's own choice replaces a guess. */
  const unguess = (file: string, header?: string) =>
    setGuessed((g) => {
      const was = g[file];
      if (!was) return g;
      if (header === undefined) return { ...g, [file]: { columns: {} } };
      const { [header]: _, ...columns } = was.columns;
      return { ...g, [file]: { ...was, columns } };
    });

  return {
    mapping,
    preview,
    previewError,
    guessed,
    /** Other files picked: nothing mapped, nothing guessed. */
    reset: () => {
      setMapping({});
      setGuessed({});
    },
    /** Another level has other fields: the columns map afresh, the file's dates and decimals stay. */
    setLevel: (file: string, level: string) => {
      unguess(file);
      change(file, (m) => ({ ...m, level, columns: undefined }));
    },
    setColumn: (file: string, header: string, target: string | string[] | null) => {
      unguess(file, header);
      change(file, (m) => ({ ...m, columns: { ...m.columns, [header]: target } }));
    },
    setOptions: (file: string, options: FileOptions) => change(file, (m) => ({ ...m, ...options })),
  };
}

type Proposal = CsvPreview['files'][number];

/** The guesses a preview proposes, noted per file beside those noted before. */
function guessesNoted(g: Record<string, Guessed>, proposals: Proposal[], mapping: Mapping): Record<string, Guessed> {
  const next = { ...g };
  for (const f of proposals) {
    const was = next[f.name] ?? { columns: {} };
    next[f.name] = {
      level: f.guessedLevel && !mapping[f.name]?.level ? f.guessedLevel : was.level,
      columns: { ...was.columns, ...Object.fromEntries(f.guesses.map((x) => [x.header, x.target])) },
    };
  }
  return next;
}

/** The mapping with a preview's guesses taken in: a level where none was chosen, and each guessed column. */
function guessesTaken(m: Mapping, proposals: Proposal[]): Mapping {
  const next = { ...m };
  for (const f of proposals) {
    const own = next[f.name] ?? {};
    next[f.name] = {
      ...own,
      ...(f.guessedLevel && !own.level ? { level: f.guessedLevel } : {}),
      ...(f.guesses.length
        ? { columns: { ...own.columns, ...Object.fromEntries(f.guesses.map((x) => [x.header, x.target])) } }
        : {}),
    };
  }
  return next;
}
