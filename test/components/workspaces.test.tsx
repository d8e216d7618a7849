// @vitest-environment happy-dom
/** The Workspaces screen's list (WorkspaceList.tsx) and its form for a new one (NewWorkspaceForm.tsx). */
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkspacesView } from '../../src-renderer/src/client';
import { NAME_RULE, NewWorkspaceForm } from '../../src-renderer/src/screens/NewWorkspaceForm';
import { WorkspaceList } from '../../src-renderer/src/screens/WorkspaceList';

afterEach(cleanup);

describe('NewWorkspaceForm', () => {
  function renderForm(busy = false) {
    const did: string[] = [];
    render(
      <NewWorkspaceForm
        busy={busy}
        onCreate={(n) => did.push(`create ${n}`)}
        onRefused={(w) => did.push(`refused ${w}`)}
      />,
    );
    return did;
  }
  const name = () => screen.getByRole('textbox', { name: 'New workspace' });
  const create = () => screen.getByRole('button', { name: 'Create and open' }) as HTMLButtonElement;

  it('creates a workspace by a name the home folder can hold, and refuses any other with the rule', () => {
    const did = renderForm();
    for (const typed of ['spring-2026', '..', 'a/b', 'x'.repeat(81), 'v1.2_final']) {
      fireEvent.change(name(), { target: { value: typed } });
      fireEvent.click(create());
    }
    expect(did).toEqual([
      'create spring-2026',
      `refused ${NAME_RULE}`,
      `refused ${NAME_RULE}`,
      `refused ${NAME_RULE}`,
      'create v1.2_final',
    ]);
  });

  it('creates nothing without a name or while a move is under way; offers no folder outside the desktop', () => {
    renderForm();
    expect(create().disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Open a folder…' })).toBeNull();
    cleanup();
    renderForm(true);
    fireEvent.change(name(), { target: { value: 'spring' } });
    expect(create().disabled).toBe(true);
  });
});

describe('WorkspaceList', () => {
  const entry = (name: string) => ({ name, path: `/home/me/workspaces/${name}`, lastOpened: '2026-03-01T09:30:12Z' });
  const VIEW = {
    home: '/home/me/workspaces',
    current: { ...entry('demo'), tenant: 'demo-tenant' },
    workspaces: [entry('demo'), entry('spring')],
  } as WorkspacesView;

  it('opens any workspace but the one open now', () => {
    const opened: string[] = [];
    render(<WorkspaceList view={VIEW} busy={false} onOpen={(w) => opened.push(w.path)} />);
    expect(screen.getByTestId('current-workspace').textContent).toBe('demo /home/me/workspaces/demo');
    const row = (name: string) => document.querySelector(`tr[data-workspace="${name}"]`)!;
    expect(row('demo').querySelector('button')).toBeNull();
    expect(row('demo').textContent).toContain('2026-03-01 09:30');
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(opened).toEqual(['/home/me/workspaces/spring']);
  });
});
