// @vitest-environment happy-dom
/** Online shops that ship from a warehouse's stock (Fulfilment.tsx): the pairs a scenario's `fulfilledFrom` holds. */
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScenarioContext } from '../../src-renderer/src/client';
import { Fulfilment } from '../../src-renderer/src/screens/Fulfilment';
import { renderHeld } from './held';

afterEach(cleanup);

const LOCATIONS: ScenarioContext['locations'] = [
  { id: 'S-01', name: 'High Street', kind: 'store' },
  { id: 'WEB-01', name: 'Web shop', kind: 'online' },
  { id: 'DC/1', name: 'Central', kind: 'warehouse' },
  { id: 'WEB-02', name: 'Outlet online', kind: 'online' },
] as ScenarioContext['locations'];

const renderPairs = (start: Record<string, string>, problems: Record<string, string> = {}) =>
  renderHeld(start, (pairs, onChange) => (
    <Fulfilment locations={LOCATIONS} pairs={pairs} problems={problems} onChange={onChange} />
  ));

const options = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((o) => o.value);
const add = () => fireEvent.click(screen.getByRole('button', { name: 'Add an online shop' }));

describe('Fulfilment', () => {
  it('adds an online location served from a warehouse first, the likeliest pick, then the next', () => {
    const seen = renderPairs({});
    add();
    expect(seen.value).toEqual({ 'WEB-01': 'DC/1' });
    add();
    expect(seen.value).toEqual({ 'WEB-01': 'DC/1', 'WEB-02': 'DC/1' });
    expect(
      screen.getAllByRole('combobox', { name: 'Online location' }).map((s) => (s as HTMLSelectElement).value),
    ).toEqual(['WEB-01', 'WEB-02']);
  });

  it('offers a shop none of the others paired, and a warehouse other than the shop itself', () => {
    renderPairs({ 'WEB-01': 'DC/1', 'WEB-02': 'S-01' });
    const [first] = screen.getAllByRole('combobox', { name: 'Online location' });
    expect(options(first)).toEqual(['S-01', 'WEB-01', 'DC/1']);
    expect(options(screen.getByRole('combobox', { name: 'Warehouse of WEB-02' }))).toEqual(['S-01', 'WEB-01', 'DC/1']);
    expect([...(first as HTMLSelectElement).options].map((o) => o.textContent)).toContain('DC/1 — Central (warehouse)');
  });

  it('changes and removes a pair in place, keeping the order shown', () => {
    const seen = renderPairs({ 'WEB-01': 'DC/1', 'WEB-02': 'DC/1' });
    fireEvent.change(screen.getAllByRole('combobox', { name: 'Online location' })[0], { target: { value: 'S-01' } });
    expect(Object.entries(seen.value)).toEqual([
      ['S-01', 'DC/1'],
      ['WEB-02', 'DC/1'],
    ]);
    fireEvent.change(screen.getByRole('combobox', { name: 'Warehouse of WEB-02' }), { target: { value: 'S-01' } });
    expect(seen.value).toEqual({ 'S-01': 'DC/1', 'WEB-02': 'S-01' });
    fireEvent.click(screen.getAllByRole('button', { name: 'Remove' })[0]);
    expect(seen.value).toEqual({ 'WEB-02': 'S-01' });
  });

  it("offers no more once every location is a shop, and shows a refused pair's problem on its row", () => {
    renderPairs(
      { 'S-01': 'DC/1', 'WEB-01': 'DC/1', 'DC/1': 'S-01', 'WEB-02': 'DC/1' },
      { '/fulfilledFrom/DC~11': 'DC/1 is no warehouse' },
    );
    expect(screen.queryByRole('button', { name: 'Add an online shop' })).toBeNull();
    const bad = document.querySelector('.field--bad')!;
    expect(bad.textContent).toContain('DC/1 is no warehouse');
    expect((bad.querySelector('select') as HTMLSelectElement).value).toBe('DC/1');
    expect(document.querySelectorAll('.field--bad')).toHaveLength(1);
  });
});
