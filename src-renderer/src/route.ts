/**
 * Every view has an address in the URL's hash (`#/backtest/<run>/style/<style>/cell/<location>/<sku>`), so Back and
 * Forward move between views, a reload comes back to the same one and an address can be kept or shared. Each part
 * is URI-encoded on its own: ids may hold "/" or spaces.
 */
import { useSyncExternalStore } from 'react';
import { decodeOrAsIs } from '../../common/uri';

export type Screen =
  'workspace' | 'load' | 'settings' | 'backtest' | 'runs' | 'compare' | 'sweep' | 'transfers' | 'integration';

export type Route =
  | { screen: 'workspace' | 'load' | 'runs' | 'transfers' | 'integration' }
  | { screen: 'settings'; scenario?: string }
  | { screen: 'backtest'; runId?: string; styleId?: string; cell?: { locationId: string; skuId: string } }
  | { screen: 'compare'; a?: string; b?: string }
  | { screen: 'sweep'; sweepId?: string };

export const SCREEN_NAMES: Record<Screen, string> = {
  workspace: 'Workspace',
  load: 'Load',
  settings: 'Settings',
  backtest: 'Backtest',
  runs: 'Runs',
  compare: 'Compare',
  sweep: 'Sweep',
  transfers: 'Transfers',
  integration: 'Integration',
};

const isScreen = (s: string | undefined): s is Screen => s !== undefined && Object.hasOwn(SCREEN_NAMES, s);

/** The view an address stands for; anything not understood is the Workspace screen. */
export function parseRoute(hash: string): Route {
  const parts = hash
    .replace(/^#?\/?/, '')
    .split('/')
    .filter(Boolean)
    .map(decodeOrAsIs);
  const [screen, ...rest] = parts;
  if (!isScreen(screen)) return { screen: 'workspace' };
  switch (screen) {
    case 'settings':
      return rest[0] ? { screen, scenario: rest[0] } : { screen };
    case 'compare':
      return rest.length >= 2 ? { screen, a: rest[0], b: rest[1] } : { screen };
    case 'sweep':
      return rest[0] ? { screen, sweepId: rest[0] } : { screen };
    case 'backtest': {
      const [runId, s, styleId, c, locationId, skuId] = rest;
      if (!runId) return { screen };
      if (s !== 'style' || !styleId) return { screen, runId };
      if (c !== 'cell' || !locationId || !skuId) return { screen, runId, styleId };
      return { screen, runId, styleId, cell: { locationId, skuId } };
    }
    default:
      return { screen };
  }
}

export function routeHash(route: Route): string {
  const parts: string[] = [route.screen];
  if (route.screen === 'settings' && route.scenario) parts.push(route.scenario);
  if (route.screen === 'compare' && route.a && route.b) parts.push(route.a, route.b);
  if (route.screen === 'sweep' && route.sweepId) parts.push(route.sweepId);
  if (route.screen === 'backtest' && route.runId) {
    parts.push(route.runId);
    if (route.styleId) {
      parts.push('style', route.styleId);
      if (route.cell) parts.push('cell', route.cell.locationId, route.cell.skuId);
    }
  }
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}

const subscribe = (changed: () => void) => {
  window.addEventListener('hashchange', changed);
  return () => window.removeEventListener('hashchange', changed);
};
const currentHash = () => window.location.hash;

/** The view the address shows now, following Back, Forward and every `go`. */
export function useRoute(): Route {
  return parseRoute(useSyncExternalStore(subscribe, currentHash));
}

/**
 * Shows a view: a new entry in the history, so Back returns to the one before; `replace` instead corrects the
 * address of the view already shown (a default filled in), which Back should skip.
 */
export function go(route: Route, { replace = false } = {}): void {
  const hash = routeHash(route);
  if (hash === window.location.hash) return;
  if (replace) {
    history.replaceState(history.state, '', hash);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else window.location.hash = hash;
}
