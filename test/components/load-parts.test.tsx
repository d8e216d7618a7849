// @vitest-environment happy-dom
/**
 * Parts of the Load screen: a refused batch's problems downloaded whole (use-errors-download.ts), what a full load
 * deletes (LoadHints.tsx) and a load's progress (LoadProgress.tsx).
 */
import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminClient, BatchOutcome, LoadJob, PickedFile } from '../../src-renderer/src/client';
import { LoadHints } from '../../src-renderer/src/screens/LoadHints';
import { LoadProgress } from '../../src-renderer/src/screens/LoadProgress';
import { useErrorsDownload } from '../../src-renderer/src/screens/use-errors-download';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The files the page would save: each one's name and text. */
function downloads() {
  const blobs: Blob[] = [];
  const names: string[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => (blobs.push(b as Blob), 'blob:saved'));
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return { names, texts: () => Promise.all(blobs.map((b) => b.text())) };
}

const FILES = [{ name: 'data/Sales.csv', text: '' }] as unknown as PickedFile[];
const problem = (n: number) => ({ file: 'data/Sales.csv', path: `row ${n}`, message: 'no such SKU' });

describe('useErrorsDownload', () => {
  it('saves the problems an outcome lists, asking the check for all of them when it lists only the first', async () => {
    const saved = downloads();
    const asked: unknown[] = [];
    const client = {
      call: async (_route: string, { body }: { body: unknown }) => {
        asked.push(body);
        return { batches: [{ files: ['data/Sales.csv'], error: 'refused', problems: [problem(1), problem(2)] }] };
      },
    } as unknown as AdminClient;
    const { result } = renderHook(() => useErrorsDownload(client, FILES, { 'data/Sales.csv': {} }));
    const listed = { files: ['data/Sales.csv'], error: 'refused', problems: [problem(1)] } as BatchOutcome;
    await act(() => result.current.downloadErrors({ ...listed, problemCount: 1 }));
    expect(asked).toEqual([]);
    await act(() => result.current.downloadErrors({ ...listed, problemCount: 2 }));
    expect(asked).toEqual([{ files: FILES, mapping: { 'data/Sales.csv': {} }, allProblems: true }]);
    expect(saved.names).toEqual(['Sales-errors.csv', 'Sales-errors.csv']);
    const [first, all] = await saved.texts();
    expect(first).toContain('row 1');
    expect(first).not.toContain('row 2');
    expect(all).toContain('row 2');
    expect(result.current.downloadError).toBeUndefined();
  });

  it('says why the problems could not be had', async () => {
    downloads();
    const client = { call: () => Promise.reject(new Error('the workbench stopped')) } as unknown as AdminClient;
    const { result } = renderHook(() => useErrorsDownload(client, FILES, {}));
    const outcome = {
      files: ['Sales.csv'],
      error: 'refused',
      problems: [],
      problemCount: 3,
    } as unknown as BatchOutcome;
    await act(() => result.current.downloadErrors(outcome));
    expect(result.current.downloadError).toBe('the workbench stopped');
  });
});

describe('LoadHints', () => {
  const hint = () => screen.getByTestId('full-load-hint').textContent!.replace(/\s+/g, ' ');
  it('names the datasets a full load may delete from, and the JSON files picked', () => {
    const summary = [
      { dataset: 'stockLevels', fullLoad: true },
      { dataset: 'sales', fullLoad: false },
      { dataset: 'purchaseOrders', fullLoad: true },
    ] as never;
    render(<LoadHints summary={summary} json={[{ name: 'Sales-0001.json' }, { name: 'Items.json' }] as never} />);
    expect(hint()).toMatch(/^Full load: stock levels and purchase orders that these files do not hold are deleted/);
    expect(screen.getByText(/^JSON files to load:/).textContent).toBe(
      'JSON files to load: Sales-0001.json, Items.json.',
    );
    cleanup();
    render(<LoadHints summary={[{ dataset: 'stockLevels', fullLoad: true }] as never} json={[]} />);
    expect(hint()).toMatch(/^Full load: stock levels that these files do not hold is deleted/);
    expect(screen.queryByText(/JSON files? to load/)).toBeNull();
    cleanup();
    render(<LoadHints summary={undefined} json={[]} />);
    expect(hint()).toMatch(/^Full load: the data that allows it that these files do not hold are deleted/);
  });
});

describe('LoadProgress', () => {
  const job = (done: boolean) =>
    ({
      progress: { files: 3, filesDone: 2, bytes: 1000, bytesDone: 400, records: 5000, seconds: done ? 2 : 0.5 },
      report: done ? { rejected: 4, batches: [] } : undefined,
    }) as unknown as LoadJob;
  it('shows the files and records loaded, the time while under a second, else the rate, and the rejected', () => {
    render(<LoadProgress job={job(false)} />);
    expect(screen.getByTestId('load-progress').textContent).toMatch(/^2 of 3 files · 5,000 records · /);
    expect(screen.getByTestId('load-progress').textContent).not.toMatch(/rejected|\/s/);
    expect(screen.getByRole('progressbar', { name: 'Files loaded' }).getAttribute('value')).toBe('400');
    cleanup();
    render(<LoadProgress job={job(true)} />);
    expect(screen.getByTestId('load-progress').textContent).toMatch(/ · 4 rejected$/);
    expect(screen.getByRole('progressbar', { name: 'Files loaded' }).getAttribute('value')).toBe('1000');
  });
});
