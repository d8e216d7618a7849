// @vitest-environment happy-dom
/** The Settings form's fields (SettingsFields.tsx), read off a settings schema: what typing in them sets. */
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fieldPaths, SchemaFields, type FieldSchema, type Values } from '../../src-renderer/src/screens/SettingsFields';
import { renderHeld } from './held';

afterEach(cleanup);

const SCHEMA: FieldSchema = {
  type: 'object',
  properties: {
    serviceLevel: { type: 'number', description: 'The share of demand to serve from stock.', minimum: 0, maximum: 1 },
    maxStock: { type: 'integer', description: 'The most units a store holds.' },
    transfersAllowed: { type: 'boolean', description: 'Whether stores send stock to each other.' },
    review: { type: 'object', properties: { days: { type: 'integer', description: 'Days between reviews.' } } },
    categories: { type: 'object', patternProperties: { '^.*$': { type: 'object' } } },
    fulfilledFrom: { type: 'object', properties: {} },
  },
};
const INHERITED: Values = { serviceLevel: 0.95, transfersAllowed: true, review: { days: 7 } };

const renderFields = (start: Values = {}, problems: Record<string, string> = {}) =>
  renderHeld(start, (values, onChange) => (
    <SchemaFields
      schema={SCHEMA}
      values={values}
      inherited={INHERITED}
      path=""
      problems={problems}
      skip={['fulfilledFrom']}
      onChange={onChange}
    />
  ));

const input = (name: string) => document.querySelector<HTMLInputElement>(`[name="${name}"]`)!;
const type = (name: string, text: string) => fireEvent.change(input(name), { target: { value: text } });

describe('SchemaFields', () => {
  it('labels each setting in words and shows what it would be otherwise, or that there is no limit', () => {
    renderFields();
    expect((screen.getByLabelText(/Service level/) as HTMLInputElement).placeholder).toBe('0.95');
    expect(input('/maxStock').placeholder).toBe('no limit');
    expect(input('/review/days').placeholder).toBe('7');
    expect(document.querySelector('[name="/fulfilledFrom"]')).toBeNull();
    expect(document.querySelector('[name^="/categories"]')).toBeNull();
  });

  it('sets the number typed, keeps text on the way to one as typed, and leaves text that is no number as text', () => {
    const seen = renderFields();
    fireEvent.focus(input('/serviceLevel'));
    type('/serviceLevel', '0.');
    expect(input('/serviceLevel').value).toBe('0.');
    expect(seen.value).toEqual({ serviceLevel: 0 });
    type('/serviceLevel', '0.97');
    expect(seen.value).toEqual({ serviceLevel: 0.97 });
    type('/maxStock', 'lots');
    expect(seen.value).toEqual({ serviceLevel: 0.97, maxStock: 'lots' });
  });

  it('overrides nothing once emptied, down to a group left empty', () => {
    const seen = renderFields({ serviceLevel: 0.9, review: { days: 3 } });
    expect(input('/review/days').value).toBe('3');
    type('/review/days', '');
    expect(seen.value).toEqual({ serviceLevel: 0.9 });
    type('/serviceLevel', ' ');
    expect(seen.value).toEqual({});
  });

  it('sets a yes-or-no setting, or leaves it to what is inherited', () => {
    const seen = renderFields();
    const select = document.querySelector<HTMLSelectElement>('[name="/transfersAllowed"]')!;
    expect(select.options[0].textContent).toBe('as inherited (yes)');
    fireEvent.change(select, { target: { value: 'false' } });
    expect(seen.value).toEqual({ transfersAllowed: false });
    fireEvent.change(select, { target: { value: '' } });
    expect(seen.value).toEqual({});
  });

  it("marks a refused value at its field, with the workbench's words in place of the description", () => {
    renderFields({ serviceLevel: 2 }, { '/serviceLevel': 'must be <= 1' });
    expect(input('/serviceLevel').getAttribute('aria-invalid')).toBe('true');
    expect(input('/serviceLevel').closest('label')!.textContent).toContain('must be <= 1');
    expect(input('/serviceLevel').closest('label')!.textContent).not.toContain('The share of demand');
    expect(input('/maxStock').getAttribute('aria-invalid')).toBeNull();
  });

  it('names by fieldPaths every field it shows, and no other', () => {
    renderFields();
    const shown = [...document.querySelectorAll('[name]')].map((e) => e.getAttribute('name'));
    expect(fieldPaths(SCHEMA, '', ['fulfilledFrom'])).toEqual(shown);
    expect(shown).toEqual(['/serviceLevel', '/maxStock', '/transfersAllowed', '/review/days']);
  });
});
