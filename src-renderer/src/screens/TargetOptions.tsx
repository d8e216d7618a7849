import type { CsvTarget } from '../client';

/** The fields a column can go into, grouped by the record they belong to (the file's own rows first). */
export function TargetOptions({ targets, except = [] }: { targets: CsvTarget[]; except?: string[] }) {
  const out = new Map<string, CsvTarget[]>();
  for (const t of targets) if (!except.includes(t.id)) out.set(t.of, [...(out.get(t.of) ?? []), t]);
  return (
    <>
      {[...out].map(([of, group]) => (
        <optgroup key={of} label={of}>
          {group.map((t) => (
            <option key={t.id} value={t.id}>
              {t.field} ({t.kind}
              {t.required ? ', required' : ''})
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}
