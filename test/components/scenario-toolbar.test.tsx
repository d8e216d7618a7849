// @vitest-environment happy-dom
/** The Settings screen's toolbar and its naming form (ScenarioToolbar.tsx, ScenarioNaming.tsx). */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { namingProblem, ScenarioNaming, type Naming } from '../../src-renderer/src/screens/ScenarioNaming';
import { ScenarioToolbar, type SettingsView } from '../../src-renderer/src/screens/ScenarioToolbar';

afterEach(cleanup);

const NAMES = ['default', 'lean', 'rich'];

function renderToolbar(name: string, { busy = false, unsaved = ['rich'] } = {}) {
  const did: string[] = [];
  render(
    <ScenarioToolbar
      names={NAMES}
      name={name}
      unsaved={(n) => unsaved.includes(n)}
      busy={busy}
      view="form"
      onPick={(n) => did.push(`pick ${n}`)}
      onSave={() => did.push('save')}
      onNaming={(n: Naming) => did.push(`${n.action} "${n.text}"`)}
      onDelete={() => did.push('delete')}
      onView={(v: SettingsView) => did.push(`view ${v}`)}
    />,
  );
  return did;
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const picker = () => screen.getByRole('combobox', { name: 'Saved scenarios' }) as HTMLSelectElement;

describe('ScenarioToolbar', () => {
  it('names each kept scenario, with its unsaved changes, and one not saved yet', () => {
    renderToolbar('lean');
    expect([...picker().options].map((o) => o.textContent)).toEqual(['default', 'lean', 'rich — unsaved changes']);
    expect(picker().value).toBe('lean');
    cleanup();
    renderToolbar('fresh');
    expect([...picker().options].map((o) => o.textContent)).toEqual([
      'fresh — not saved yet',
      'default',
      'lean',
      'rich — unsaved changes',
    ]);
    expect(picker().value).toBe('');
  });

  it('hands back what the user does: a pick, a save, a name asked for, a delete, a view', () => {
    const did = renderToolbar('lean');
    fireEvent.change(picker(), { target: { value: 'rich' } });
    fireEvent.click(button('Save'));
    fireEvent.click(button('New…'));
    fireEvent.click(button('Duplicate…'));
    fireEvent.click(button('Rename…'));
    fireEvent.click(button('Delete'));
    fireEvent.click(button('JSON'));
    expect(did).toEqual([
      'pick rich',
      'save',
      'new ""',
      'duplicate "lean-copy"',
      'rename "lean-copy"',
      'delete',
      'view json',
    ]);
    expect(button('Form').getAttribute('aria-pressed')).toBe('true');
    expect(button('JSON').getAttribute('aria-pressed')).toBe('false');
  });

  it('keeps the scenario runs use from being renamed or deleted, and one not saved from either', () => {
    renderToolbar('default');
    expect([button('Rename…').disabled, button('Delete').disabled, button('Duplicate…').disabled]).toEqual([
      true,
      true,
      false,
    ]);
    expect(button('Delete').title).toMatch(/can be emptied, not deleted/);
    cleanup();
    renderToolbar('fresh');
    expect([button('Rename…').disabled, button('Delete').disabled]).toEqual([true, true]);
  });

  it('does nothing more while busy', () => {
    renderToolbar('lean', { busy: true });
    expect(screen.getByRole('button', { name: 'Saving…' })).toHaveProperty('disabled', true);
    for (const name of ['New…', 'Duplicate…', 'Rename…', 'Delete']) expect(button(name).disabled).toBe(true);
  });
});

describe('ScenarioNaming', () => {
  it('refuses a name that is no name or is kept already, and takes any other', () => {
    expect(namingProblem('', NAMES)).toMatch(/1 to 80 letters/);
    expect(namingProblem('lean week', NAMES)).toMatch(/1 to 80 letters/);
    expect(namingProblem('x'.repeat(81), NAMES)).toMatch(/1 to 80 letters/);
    expect(namingProblem('lean', NAMES)).toBe('"lean" is kept already.');
    expect(namingProblem('lean_2.b-c', NAMES)).toBeUndefined();
  });

  it('asks for the name in words of what it is for, and hands back what was typed', () => {
    const did: string[] = [];
    const naming: Naming = { action: 'rename', text: 'lean-copy' };
    render(
      <ScenarioNaming
        naming={naming}
        onChange={(n) => did.push(`typed ${n.action} "${n.text}"`)}
        onCancel={() => did.push('cancel')}
        onSubmit={(n) => did.push(`ok ${n.action} "${n.text}"`)}
      />,
    );
    const input = screen.getByRole('textbox', { name: 'Rename to' });
    fireEvent.change(input, { target: { value: 'leaner' } });
    fireEvent.click(button('OK'));
    fireEvent.click(button('Cancel'));
    expect(did).toEqual(['typed rename "leaner"', 'ok rename "lean-copy"', 'cancel']);
  });
});
