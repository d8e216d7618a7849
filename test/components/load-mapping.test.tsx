// @vitest-environment happy-dom
/** The Load screen's mapping of tables (use-csv-mapping.ts) and its toolbar (LoadToolbar.tsx). */
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminClient, CsvMapping, CsvPreview, PickedFile } from '../../src-renderer/src/client';
import { LoadToolbar } from '../../src-renderer/src/screens/LoadToolbar';
import { useCsvMapping } from '../../src-renderer/src/screens/use-csv-mapping';

afterEach(cleanup);

const QTY = 'Sales.lines.quantity';

/**
 * A workbench that previews as the real one guesses: a file named like its level holds it, and a header named
 * like a field goes into it, each only while the mapping says nothing of it.
 */
function previewer() {
  const asked: { files: PickedFile[]; mapping: CsvMapping }[] = [];
  const client = {
    call: async (route: string, { body }: { body: { files: PickedFile[]; mapping: CsvMapping } }) => {
      if (route !== 'POST /load/preview') throw new Error(`not asked of this test: ${route}`);
      asked.push(body);
      const preview: CsvPreview = {
        levels: [{ id: 'Sales.lines', label: 'Sales lines' }],
        files: body.files.map((f) => {
          const own = body.mapping[f.name] ?? {};
          return {
            name: f.name,
            level: own.level,
            guessedLevel: own.level ? undefined : 'Sales.lines',
            guesses: own.columns && 'qty' in own.columns ? [] : [{ header: 'qty', target: QTY }],
            headers: ['qty'],
            columns: [own.columns?.qty ?? null],
            problems: [],
            warnings: [],
          } as unknown as CsvPreview['files'][number];
        }),
      };
      return preview;
    },
  } as unknown as AdminClient;
  return { client, asked };
}

describe('useCsvMapping', () => {
  it("proposes the level and fields the headers suggest, marked as guesses, until the user's own choice", async () => {
    const { client, asked } = previewer();
    const files: PickedFile[] = [{ name: 'sales.csv', text: 'qty\n1\n' }];
    const { result } = renderHook(() => useCsvMapping(client, files));
    await waitFor(() =>
      expect(result.current.mapping).toEqual({ 'sales.csv': { level: 'Sales.lines', columns: { qty: QTY } } }),
    );
    expect(result.current.guessed).toEqual({ 'sales.csv': { level: 'Sales.lines', columns: { qty: QTY } } });

    act(() => result.current.setColumn('sales.csv', 'qty', null));
    expect(result.current.mapping['sales.csv'].columns).toEqual({ qty: null });
    expect(result.current.guessed['sales.csv']).toEqual({ level: 'Sales.lines', columns: {} });
    // The preview is read again for the mapping as the user left it, and proposes nothing over the choice.
    await waitFor(() =>
      expect(asked.at(-1)!.mapping).toEqual({ 'sales.csv': { level: 'Sales.lines', columns: { qty: null } } }),
    );
    await waitFor(() => expect(result.current.preview?.files[0].columns).toEqual([null]));
    expect(result.current.mapping['sales.csv'].columns).toEqual({ qty: null });

    act(() => result.current.setLevel('sales.csv', 'Sales.lines'));
    expect(result.current.mapping['sales.csv']).toEqual({ level: 'Sales.lines', columns: undefined });
    expect(result.current.guessed['sales.csv']).toEqual({ columns: {} });
    act(() => result.current.setOptions('sales.csv', { decimalComma: true }));
    expect(result.current.mapping['sales.csv'].decimalComma).toBe(true);
  });

  it("sends a CSV file's head cut at a line end, a columnar file whole, and no JSON file at all", async () => {
    const { client, asked } = previewer();
    const line = 'a-line-of-forty-characters-and-a-newline\n';
    const long = 'qty\n' + line.repeat(2000);
    const files: PickedFile[] = [
      { name: 'Sales-0001.json', text: '{"sales": []}' },
      { name: 'big.csv', text: long },
      { name: 'rows.parquet', base64: 'UEFSMQ==' },
    ];
    renderHook(() => useCsvMapping(client, files));
    await waitFor(() => expect(asked.length).toBeGreaterThan(0));
    const sent = asked[0].files;
    expect(sent.map((f) => f.name)).toEqual(['big.csv', 'rows.parquet']);
    const head = (sent[0] as { text: string }).text;
    expect(head.length).toBeLessThanOrEqual(64 * 1024);
    expect(head.length).toBeGreaterThan(60 * 1024);
    expect(long.startsWith(head)).toBe(true);
    expect(head.endsWith('\n')).toBe(true);
    expect(sent[1]).toEqual({ name: 'rows.parquet', base64: 'UEFSMQ==' });
  });

  it('reads no preview without a table, and forgets the mapping when other files are picked', async () => {
    const { client, asked } = previewer();
    const { result, rerender } = renderHook(({ files }) => useCsvMapping(client, files), {
      initialProps: { files: [{ name: 'sales.csv', text: 'qty\n1\n' }] as PickedFile[] },
    });
    await waitFor(() => expect(result.current.mapping['sales.csv']).toBeDefined());
    const calls = asked.length;
    rerender({ files: [{ name: 'Items.json', text: '{}' }] });
    act(() => result.current.reset());
    expect(result.current.preview).toBeUndefined();
    expect(result.current.mapping).toEqual({});
    expect(result.current.guessed).toEqual({});
    expect(asked.length).toBe(calls);
  });
});

describe('LoadToolbar', () => {
  function renderToolbar(props: { files: number; failing: number; running?: boolean; onlyIfAllPass?: boolean }) {
    const did: string[] = [];
    render(
      <LoadToolbar
        files={props.files}
        failing={props.failing}
        running={props.running ?? false}
        fullLoad={false}
        onFullLoad={(v) => did.push(`full load ${v}`)}
        onlyIfAllPass={props.onlyIfAllPass ?? true}
        onOnlyIfAllPass={(v) => did.push(`only if all pass ${v}`)}
        onPick={() => did.push('pick')}
        onLoad={() => did.push('load')}
      />,
    );
    return did;
  }
  const load = () => screen.getByRole('button', { name: /^Load/ }) as HTMLButtonElement;

  it('loads the files picked, and says how many', () => {
    const did = renderToolbar({ files: 3, failing: 0 });
    expect(load().textContent).toBe('Load 3 files');
    fireEvent.click(load());
    fireEvent.click(screen.getByRole('checkbox', { name: 'Full load' }));
    fireEvent.click(screen.getByRole('radio', { name: 'each dataset on its own' }));
    expect(did).toEqual(['load', 'full load true', 'only if all pass false']);
  });

  it('loads nothing without files, while a load runs, or, every file or none, while a batch would be refused', () => {
    renderToolbar({ files: 0, failing: 0 });
    expect(load().disabled).toBe(true);
    cleanup();
    renderToolbar({ files: 1, failing: 0, running: true });
    expect(load().textContent).toBe('Loading…');
    expect(load().disabled).toBe(true);
    cleanup();
    renderToolbar({ files: 1, failing: 1 });
    expect(load().textContent).toBe('Load 1 file');
    expect(load().disabled).toBe(true);
    cleanup();
    renderToolbar({ files: 2, failing: 1, onlyIfAllPass: false });
    expect(load().disabled).toBe(false);
  });
});
