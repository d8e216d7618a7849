// @vitest-environment happy-dom
/**
 * The Integration screen's request log: read as it grows (use-request-log.ts), filtered and ordered
 * (request-log.ts) by its filters (LogFilters.tsx), and listed with each request opened on a click
 * (RequestLogList.tsx).
 */
import { act, cleanup, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AdminClient, RequestLogEntry } from '../../src-renderer/src/client';
import { LogFilters } from '../../src-renderer/src/screens/LogFilters';
import { RequestLogList } from '../../src-renderer/src/screens/RequestLogList';
import { EVERY_REQUEST, viewLog, type LogFilter } from '../../src-renderer/src/screens/request-log';
import { LOG_POLL_MS, useRequestLog } from '../../src-renderer/src/screens/use-request-log';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const entry = (
  id: number,
  method: string,
  path: string,
  status: number,
  durationMs: number,
  more: Partial<RequestLogEntry> = {},
): RequestLogEntry => ({
  id,
  requestId: `req-${id}`,
  loggedAt: `2026-03-0${id}T10:00:00.000Z`,
  method,
  path,
  status,
  durationMs,
  errorCount: 0,
  errors: [],
  warningCount: 0,
  warnings: [],
  ...more,
});
const refused = { message: 'quantity must be a number', path: 'sales[0].quantity' };
// Newest first, as the log is read.
const ENTRIES = [
  entry(5, 'GET', '/_workbench/runs', 200, 3),
  entry(4, 'POST', '/Sales', 400, 40, { errors: [refused], errorCount: 1, dataset: 'Sales' }),
  entry(3, 'POST', '/Sales', 200, 90),
  entry(2, 'GET', '/Recommendations/transfers', 500, 10),
  entry(1, 'POST', '/Items', 201, 20),
];
const ids = (rows: readonly RequestLogEntry[]) => rows.map((e) => e.id);
const view = (filter: Partial<LogFilter>, order: 'newest' | 'slowest' | 'status' = 'newest') =>
  viewLog(ENTRIES, { ...EVERY_REQUEST, ...filter }, order);

describe('viewLog', () => {
  it("leaves out the screens' own calls until asked for, and counts them", () => {
    expect(ids(view({}).visible)).toEqual([4, 3, 2, 1]);
    expect(view({}).hiddenOwn).toBe(1);
    expect(view({}).endpoints).toEqual(['GET /Recommendations/transfers', 'POST /Items', 'POST /Sales']);
    expect(ids(view({ own: true }).visible)).toEqual([5, 4, 3, 2, 1]);
    expect(view({ own: true }).hiddenOwn).toBe(0);
    expect(view({ own: true }).endpoints).toContain('GET /_workbench/runs');
  });

  it('keeps the refused requests, a status class, an endpoint, or those whose words hold the text', () => {
    expect(ids(view({ refusedOnly: true }).visible)).toEqual([4, 2]);
    expect(ids(view({ status: '2xx' }).visible)).toEqual([3, 1]);
    expect(ids(view({ status: '5xx' }).visible)).toEqual([2]);
    expect(ids(view({ endpoint: 'POST /Sales' }).visible)).toEqual([4, 3]);
    expect(ids(view({ text: '  Must Be A NUMBER ' }).visible)).toEqual([4]);
    expect(ids(view({ text: 'sales' }).visible)).toEqual([4, 3]);
    expect(ids(view({ text: '201' }).visible)).toEqual([1]);
  });

  it('orders them newest, slowest or highest status first', () => {
    expect(ids(view({}, 'slowest').visible)).toEqual([3, 4, 1, 2]);
    expect(ids(view({}, 'status').visible)).toEqual([2, 4, 1, 3]);
  });
});

describe('useRequestLog', () => {
  it('reads the last requests, then those after the last one read, newest first; a failed read is said', async () => {
    vi.useFakeTimers();
    const asked: unknown[] = [];
    const answers: (RequestLogEntry[] | Error)[] = [
      [ENTRIES[4], ENTRIES[3]],
      [],
      new Error('The workbench stopped'),
      [ENTRIES[2], ENTRIES[1]],
    ];
    const client = {
      call: async (route: string, { query }: { query: unknown }) => {
        expect(route).toBe('GET /log');
        asked.push(query);
        const answer = answers.shift() ?? [];
        if (answer instanceof Error) throw answer;
        return { entries: answer };
      },
    } as unknown as AdminClient;
    const { result } = renderHook(() => useRequestLog(client));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(ids(result.current.entries)).toEqual([2, 1]);
    await act(() => vi.advanceTimersByTimeAsync(LOG_POLL_MS));
    await act(() => vi.advanceTimersByTimeAsync(LOG_POLL_MS));
    expect(result.current.error).toBe('The workbench stopped');
    await act(() => vi.advanceTimersByTimeAsync(LOG_POLL_MS));
    expect(ids(result.current.entries)).toEqual([4, 3, 2, 1]);
    expect(asked).toEqual([
      { limit: 200 },
      { afterId: 2, limit: 1000 },
      { afterId: 2, limit: 1000 },
      { afterId: 2, limit: 1000 },
    ]);
  });
});

describe('LogFilters', () => {
  it('hands back the filter with the one choice changed, the order and the export', () => {
    const did: unknown[] = [];
    render(
      <LogFilters
        filter={EVERY_REQUEST}
        onFilter={(f) => did.push(f)}
        order="newest"
        onOrder={(o) => did.push(o)}
        endpoints={['POST /Items', 'POST /Sales']}
        shown={2}
        total={5}
        hiddenOwn={1}
        onExport={() => did.push('export')}
      />,
    );
    expect(screen.getByTestId('log-count').textContent).toBe("2 of 5 requests (1 of the screens' own hidden)");
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter the requests' }), { target: { value: 'qty' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Endpoint' }), { target: { value: 'POST /Sales' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: '4xx' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Refused only (4xx, 5xx)' }));
    fireEvent.click(screen.getByRole('checkbox', { name: "The screens' own calls (/_workbench)" }));
    fireEvent.change(screen.getByRole('combobox', { name: 'Order' }), { target: { value: 'slowest' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(did).toEqual([
      { ...EVERY_REQUEST, text: 'qty' },
      { ...EVERY_REQUEST, endpoint: 'POST /Sales' },
      { ...EVERY_REQUEST, status: '4xx' },
      { ...EVERY_REQUEST, refusedOnly: true },
      { ...EVERY_REQUEST, own: true },
      'slowest',
      'export',
    ]);
  });
});

describe('RequestLogList', () => {
  it('opens a request to what came in and went out on a click, and closes it on another', () => {
    render(<RequestLogList entries={ENTRIES.slice(1, 3)} total={5} hiddenOwn={0} />);
    expect(screen.queryByTestId('log-empty')).toBeNull();
    expect([...document.querySelectorAll('.log__errors li')].map((li) => li.textContent)).toEqual([
      'sales[0].quantity: quantity must be a number',
    ]);
    const head = screen.getByRole('button', { name: '400 POST /Sales: open' });
    fireEvent.click(head);
    expect(head.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getAllByTestId('log-exchange')).toHaveLength(1);
    expect(screen.getByTestId('log-exchange').textContent).toContain('id req-4');
    fireEvent.click(screen.getByRole('button', { name: '400 POST /Sales: close' }));
    expect(screen.queryByTestId('log-exchange')).toBeNull();
  });

  it("says why none is shown: the screens' own calls hidden, or the filters", () => {
    render(<RequestLogList entries={[]} total={3} hiddenOwn={3} />);
    expect(screen.getByTestId('log-empty').textContent).toMatch(/^The 3 requests in the log are the screens' own/);
    cleanup();
    render(<RequestLogList entries={[]} total={3} hiddenOwn={1} />);
    expect(screen.getByTestId('log-empty').textContent).toMatch(/^None of the 3 requests matches the filters above/);
  });
});
