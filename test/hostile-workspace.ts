/**
 * A workspace for hostile requests to miss: every dataset holds a record, a split full load is open, a scenario is
 * kept and proposals wait for approval, so a bad request that ran, approved, loaded, kept or deleted anything shows
 * in its state.
 */
import { expect } from 'vitest';
import { DATASETS } from '../engine/model/datasets.js';
import { storeRun, type Proposal } from '../engine/service/transfers.js';
import { validRecords } from './fixtures.js';
import type { TestServer } from './api-helpers.js';

export async function fillForHostileRequests(t: TestServer): Promise<void> {
  const valid = validRecords();
  for (const d of DATASETS)
    expect((await t.call('POST', `/${d.name}`, { [d.envelope]: [valid[d.name]] })).status, d.name).toBe(200);
  expect(
    (await t.call('POST', '/Locations?fullLoad=true&moreRecordsAvailable=true', { locations: [valid.Locations] }))
      .status,
  ).toBe(200);
  expect((await t.call('PUT', '/_workbench/scenarios/kept', { defaults: { serviceLevel: 0.9 } })).status).toBe(200);
  const proposals: Proposal[] = Array.from({ length: 5 }, (_, i) => ({
    referenceId: `R00${i}`,
    transferType: 'Replenishment',
    fromLocationId: 'WH',
    toLocationId: 'L1',
    skuId: 'SKU1',
    quantity: i + 1,
    reason: 'below target',
  }));
  const ws = t.server.workbench.workspace;
  const now = Date.now() * 1000;
  await ws.exclusive(() => ws.transaction(() => storeRun(ws, proposals, now, now, now)));
}

/** What a bad request must not change: every dataset, the open split loads, scenarios, proposals and runs. */
export async function workspaceState(t: TestServer, token: string): Promise<unknown> {
  const get = async (url: string) => {
    const res = await t.server.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, 'x-tenant': t.server.info.tenant },
    });
    expect(res.statusCode, url).toBe(200);
    return JSON.parse(res.body);
  };
  const state: Record<string, unknown> = {
    summary: await get('/_workbench/summary'),
    scenarios: await get('/_workbench/scenarios'),
    transfers: await get('/_workbench/transfers?limit=10000'),
    backtests: await get('/_workbench/backtests'),
    sweeps: await get('/_workbench/sweeps'),
  };
  for (const d of DATASETS) state[d.name] = await get(`/_workbench/data/${d.name}?limit=10000`);
  return state;
}
