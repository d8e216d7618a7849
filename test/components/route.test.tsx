// @vitest-environment happy-dom
/** Every view's address (route.ts): read from the hash, written to it, and followed as it changes. */
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { go, parseRoute, routeHash, useRoute, type Route } from '../../src-renderer/src/route';

afterEach(cleanup);

describe('addresses', () => {
  it('read back the view they were written for, ids with "/", spaces and "%" included', () => {
    const routes: Route[] = [
      { screen: 'backtest', runId: 'bt/2025 03', styleId: 'ST%1', cell: { locationId: 'DC/1', skuId: 'SKU 9' } },
      { screen: 'compare', a: 'bt-1', b: 'bt-2' },
      { screen: 'settings', scenario: 'lean.v2' },
      { screen: 'sweep', sweepId: 'sw-1' },
      { screen: 'transfers' },
    ];
    for (const route of routes) expect(parseRoute(routeHash(route))).toEqual(route);
    expect(routeHash(routes[0])).toBe('#/backtest/bt%2F2025%2003/style/ST%251/cell/DC%2F1/SKU%209');
  });

  it('take a part that is no valid percent-encoding as typed, and anything not understood as the Workspace', () => {
    expect(parseRoute('#/backtest/bt%zz-1')).toEqual({ screen: 'backtest', runId: 'bt%zz-1' });
    expect(parseRoute('#/sweep/%E0%A4%A')).toEqual({ screen: 'sweep', sweepId: '%E0%A4%A' });
    expect(parseRoute('#/nowhere/at/all')).toEqual({ screen: 'workspace' });
    expect(parseRoute('#/compare/bt-1')).toEqual({ screen: 'compare' });
    expect(parseRoute('')).toEqual({ screen: 'workspace' });
  });

  it('are followed by the view shown, whether a new entry or a corrected one', async () => {
    const { result } = renderHook(() => useRoute());
    act(() => go({ screen: 'sweep', sweepId: 'sw 1' }));
    await waitFor(() => expect(result.current).toEqual({ screen: 'sweep', sweepId: 'sw 1' }));
    expect(window.location.hash).toBe('#/sweep/sw%201');
    act(() => go({ screen: 'settings', scenario: 'default' }, { replace: true }));
    await waitFor(() => expect(result.current).toEqual({ screen: 'settings', scenario: 'default' }));
    expect(window.location.hash).toBe('#/settings/default');
  });
});
