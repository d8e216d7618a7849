// @vitest-environment happy-dom
/** Problems and warnings as the Load screen lists them (ProblemPlace.tsx): where each lies, then what it says. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../src-renderer/src/client';
import { ProblemList } from '../../src-renderer/src/screens/ProblemPlace';

afterEach(cleanup);

const PROBLEMS: Problem[] = [
  { file: 'C:\\exports\\sales.csv', row: 12, column: 'qty', path: '/sales/3/quantity', message: 'must be a number' },
  { path: '/sales/4', recordId: 'S-9', message: 'duplicates S-9 in this batch' },
  { path: '', message: 'the batch holds no sales' },
];

describe('ProblemList', () => {
  it("tells each problem's file, row, column, pointer and record before its message", () => {
    render(<ProblemList problems={PROBLEMS} className="log__errors" label="Problems of sales.csv" />);
    const list = screen.getByRole('list', { name: 'Problems of sales.csv' });
    expect(list.className).toBe('log__errors');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'sales.csv row 12, column "qty" /sales/3/quantity: must be a number',
      '/sales/4 [S-9]: duplicates S-9 in this batch',
      'the batch holds no sales',
    ]);
    expect(list.querySelector('code')!.textContent).toBe('/sales/3/quantity');
  });

  it('shows nothing without problems, unless the caller adds items of its own', () => {
    const { container } = render(<ProblemList problems={[]} className="load__warnings" />);
    expect(container.querySelector('ul')).toBeNull();
    cleanup();
    render(
      <ProblemList problems={[]} className="log__errors">
        <li>2 problems shown with their columns above</li>
      </ProblemList>,
    );
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '2 problems shown with their columns above',
    ]);
  });
});
