import { Fragment, type ReactNode } from 'react';
import type { Problem } from '../client';

/** Where a problem lies, before its message: the CSV file, row and column, then the record's pointer and id. */
export function ProblemPlace({ problem: p }: { problem: Problem }) {
  const parts: ReactNode[] = [];
  const file = p.file?.split(/[\\/]/).pop();
  if (file)
    parts.push(
      `${file}${p.row === undefined ? '' : ` row ${p.row}`}${p.column === undefined ? '' : `, column "${p.column}"`}`,
    );
  if (p.path) parts.push(<code>{p.path}</code>);
  if (p.recordId) parts.push(`[${p.recordId}]`);
  if (parts.length === 0) return null;
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && ' '}
          {part}
        </Fragment>
      ))}
      :{' '}
    </>
  );
}

/**
 * Problems (or warnings) as a list, each where it lies and then what it says; nothing when there are none. Items of
 * the caller's own (how many more there are) follow them.
 */
export function ProblemList({
  problems,
  className,
  label,
  children,
}: {
  problems: readonly Problem[];
  className: string;
  label?: string;
  children?: ReactNode;
}) {
  if (problems.length === 0 && !children) return null;
  return (
    <ul className={className} aria-label={label}>
      {problems.map((p, i) => (
        <li key={i}>
          <ProblemPlace problem={p} />
          {p.message}
        </li>
      ))}
      {children}
    </ul>
  );
}

/** A problem by its file, row, column and words: the same problem told twice has one key. */
export const problemKey = (p: Pick<Problem, 'file' | 'row' | 'column' | 'message'>) =>
  [p.file?.split(/[\\/]/).pop() ?? '', p.row ?? '', p.column ?? '', p.message].join('\u0000');
