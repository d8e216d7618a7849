// @vitest-environment happy-dom
/** Starting the local API (LocalApi.tsx): the port typed, checked before the listener is asked to start. */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../src-renderer/src/client';
import { LocalApi, parsePort } from '../../src-renderer/src/screens/LocalApi';

afterEach(cleanup);

describe('parsePort', () => {
  it('takes a whole number from 0 to 65535, and nothing else', () => {
    expect(parsePort('8080')).toBe(8080);
    expect(parsePort('0')).toBe(0);
    expect(parsePort('65535')).toBe(65_535);
    expect(parsePort('65536')).toBeUndefined();
    expect(parsePort('-1')).toBeUndefined();
    expect(parsePort('80.5')).toBeUndefined();
    expect(parsePort('http')).toBeUndefined();
  });
});

describe('LocalApi', () => {
  it('refuses a port no listener can take, and starts on one it can, for the tenant typed', async () => {
    const asked: unknown[] = [];
    const client = {
      call: async (route: string, opts?: { body: unknown }) => {
        if (route === 'GET /listener') return { listening: false, tenant: '' };
        asked.push([route, opts?.body]);
        return { listening: false, tenant: 'acme' };
      },
    } as unknown as AdminClient;
    render(<LocalApi client={client} />);
    const port = await screen.findByRole('textbox', { name: 'Port' });
    fireEvent.change(port, { target: { value: '70000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    expect(screen.getByText(/The port is a whole number from 1 to 65535/)).toBeTruthy();
    expect(asked).toEqual([]);
    fireEvent.change(port, { target: { value: '8081' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Tenant' }), { target: { value: 'acme' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(asked).toEqual([['POST /listener/start', { port: 8081, tenant: 'acme' }]]));
  });
});
