// @vitest-environment happy-dom
/** How a screen tells of its work (Notices.tsx): an error read out at once, a notice when the reader is free. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Notices } from '../../src-renderer/src/Notices';

afterEach(cleanup);

describe('Notices', () => {
  it('shows the error as an alert and the notice as a status, the error first', () => {
    const { container } = render(<Notices error="Not saved: one value was refused." notice="Saved scenario base" />);
    expect(screen.getByRole('alert').textContent).toBe('Not saved: one value was refused.');
    expect(screen.getByRole('status').textContent).toBe('Saved scenario base');
    expect([...container.querySelectorAll('p')].map((p) => p.getAttribute('role'))).toEqual(['alert', 'status']);
  });

  it('shows nothing for what is absent or false', () => {
    render(<Notices error={false} notice="Loading…" />);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    cleanup();
    render(<Notices error={undefined} notice="" />);
    expect(document.body.querySelectorAll('p')).toHaveLength(0);
  });
});
