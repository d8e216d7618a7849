// @vitest-environment happy-dom
/** A run's breakdown: the groups its choices let through, in their order (breakdown-rows.ts), and its toolbar. */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GroupKpis } from '../../src-renderer/src/client';
import { namesOf } from '../../src-renderer/src/names';
import type { Breakdown } from '../../src-renderer/src/store';
import { BreakdownToolbar } from '../../src-renderer/src/screens/BreakdownToolbar';
import { breakdownRows } from '../../src-renderer/src/screens/breakdown-rows';

afterEach(cleanup);

const NAMES = namesOf({
  locations: [
    { id: 'ST-001', name: 'Nordvik Ede', kind: 'store' },
    { id: 'ST-002', name: 'Haven', kind: 'store' },
    { id: 'WH-01', name: 'Central', kind: 'warehouse' },
    { id: 'WEB', name: 'Web shop', kind: 'online' },
  ],
  styles: [
    { id: 'TEE-100', description: 'Basic tee', color: 'White', categoryId: 'C1', category: 'Tops' },
    { id: 'JEAN-200', description: 'Slim jean', color: 'Blue', categoryId: 'C2', category: 'Bottoms' },
  ],
  categories: [
    { id: 'C1', name: 'Tops' },
    { id: 'C2', name: 'Bottoms' },
  ],
} as never);

const side = (stockOutDays: number, sales: number) => ({
  stockOutDays,
  sales,
  carriedDays: sales ? 10 : 0,
  inventoryUnits: 0,
  warehouse: { inventoryUnits: 0 },
});
const group = (id: string, stockOutDays: number, sales = 1) =>
  ({ id, simulated: side(stockOutDays, sales), actual: side(0, sales) }) as unknown as GroupKpis;
const LOCATIONS = [group('ST-002', 4), group('WH-01', 9), group('ST-001', 4), group('WEB', 0, 0)];
const STYLES = [group('TEE-100', 2), group('JEAN-200', 5)];
const ids = (rows: readonly GroupKpis[]) => rows.map((g) => g.id);
const view = (more: Partial<Breakdown>): Breakdown => ({ level: 'location', filter: '', ...more });

describe('breakdownRows', () => {
  it('puts the most stock-out days first, ties by id', () => {
    expect(ids(breakdownRows(LOCATIONS, view({}), NAMES))).toEqual(['WH-01', 'ST-001', 'ST-002', 'WEB']);
  });

  it("keeps a location's name or id holding the text, of the kind chosen, and those that saw anything if asked", () => {
    expect(ids(breakdownRows(LOCATIONS, view({ filter: '  HAVEN ' }), NAMES))).toEqual(['ST-002']);
    expect(ids(breakdownRows(LOCATIONS, view({ filter: 'st-' }), NAMES))).toEqual(['ST-001', 'ST-002']);
    expect(ids(breakdownRows(LOCATIONS, view({ kind: 'store' }), NAMES))).toEqual(['ST-001', 'ST-002']);
    expect(ids(breakdownRows(LOCATIONS, view({ activeOnly: true }), NAMES))).toEqual(['WH-01', 'ST-001', 'ST-002']);
    // A category chosen for styles narrows no locations.
    expect(ids(breakdownRows(LOCATIONS, view({ category: 'C1' }), NAMES))).toHaveLength(4);
  });

  it("keeps a style's description holding the text, and of the category chosen", () => {
    expect(ids(breakdownRows(STYLES, view({ level: 'style', filter: 'jean' }), NAMES))).toEqual(['JEAN-200']);
    expect(ids(breakdownRows(STYLES, view({ level: 'style', category: 'C1' }), NAMES))).toEqual(['TEE-100']);
    expect(ids(breakdownRows(STYLES, view({ level: 'style', kind: 'store' }), NAMES))).toEqual(['JEAN-200', 'TEE-100']);
  });
});

describe('BreakdownToolbar', () => {
  function renderToolbar(shown: Breakdown) {
    const did: unknown[] = [];
    render(
      <BreakdownToolbar
        view={shown}
        onView={(v) => did.push(v)}
        names={NAMES}
        onExport={() => did.push('export')}
        canExport
      />,
    );
    return did;
  }

  it('hands back the view with the one choice changed, by location', () => {
    const did = renderToolbar(view({ filter: 'st' }));
    fireEvent.change(screen.getByRole('combobox', { name: 'By' }), { target: { value: 'style' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Find' }), { target: { value: 'st-0' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Kind' }), { target: { value: 'warehouse' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Only rows with activity' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(did).toEqual([
      view({ level: 'style', filter: 'st' }),
      view({ filter: 'st-0' }),
      view({ filter: 'st', kind: 'warehouse' }),
      view({ filter: 'st', activeOnly: true }),
      'export',
    ]);
  });

  it("offers a style's categories by name instead of a location's kinds", () => {
    const did = renderToolbar(view({ level: 'style' }));
    expect(screen.queryByRole('combobox', { name: 'Kind' })).toBeNull();
    const category = screen.getByRole('combobox', { name: 'Category' }) as HTMLSelectElement;
    expect([...category.options].map((o) => o.textContent)).toEqual(['every category', 'Tops', 'Bottoms']);
    fireEvent.change(category, { target: { value: 'C2' } });
    expect(did).toEqual([view({ level: 'style', category: 'C2' })]);
  });
});
