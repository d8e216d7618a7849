// @vitest-environment happy-dom
/** A filter's choice among values (FilterSelect.tsx), as the Transfers, Breakdown and Integration screens use it. */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FilterSelect } from '../../src-renderer/src/FilterSelect';

afterEach(cleanup);

describe('FilterSelect', () => {
  it('offers every value after the choice that lets all through, and hands back the one chosen', () => {
    const chosen: string[] = [];
    render(
      <FilterSelect
        name="log-status"
        label="Status"
        value="4xx"
        values={['2xx', '4xx', '5xx']}
        every="every status"
        onChange={(v) => chosen.push(v)}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Status' }) as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['', 'every status'],
      ['2xx', '2xx'],
      ['4xx', '4xx'],
      ['5xx', '5xx'],
    ]);
    expect(select.value).toBe('4xx');
    fireEvent.change(select, { target: { value: '' } });
    fireEvent.change(select, { target: { value: '5xx' } });
    expect(chosen).toEqual(['', '5xx']);
  });

  it('labels a value by the words given with it', () => {
    render(
      <label>
        Category
        <FilterSelect
          name="category"
          value=""
          values={[
            ['MC-DRS', 'Dresses'],
            ['MC-TOP', 'Tops'],
          ]}
          every="every category"
          onChange={() => undefined}
        />
      </label>,
    );
    const select = screen.getByRole('combobox', { name: /Category/ }) as HTMLSelectElement;
    expect([...select.options].map((o) => `${o.value}=${o.textContent}`)).toEqual([
      '=every category',
      'MC-DRS=Dresses',
      'MC-TOP=Tops',
    ]);
    expect(select.getAttribute('aria-label')).toBeNull();
  });
});
