/**
 * The admin API's contract, route by route: every param, query parameter and body field the table declares is
 * checked before the handler runs. A wrong one is a 400 problem naming it, and nothing in the workspace changes.
 * The cases are read off the table itself, so a route added to it is covered without a line here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kind, type TObject, type TSchema } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspace } from './demo-workspace.js';
import { openBridge, type Bridge } from '../src-main/bridge';
import { ADMIN_ROUTES, DESK_ROUTES } from '../engine/server/admin/table';
import type { AnyRoute } from '../engine/server/admin/route';
import { AdminClient, allProposals, ipcTransport, routeRequest } from '../src-renderer/src/admin-client';

const dir = mkdtempSync(join(tmpdir(), 'wb-contract-'));
const ROUTES = Object.entries({ ...ADMIN_ROUTES, ...DESK_ROUTES }) as [string, AnyRoute][];

let bridge: Bridge;
let client: AdminClient;

beforeAll(async () => {
  bridge = await openBridge(demoWorkspace(join(dir, 'ws')), { home: dir });
  client = new AdminClient(ipcTransport(bridge));
  // Something of every kind to lose: open proposals, an approved batch, a kept run and a scenario.
  await client.call('POST /recommendations/run', { body: {} });
  const open = await client.call('GET /transfers', { query: { limit: 5 } });
  await client.call('POST /transfers/approve', { body: { referenceIds: open.proposals.map((p) => p.referenceId) } });
  await client.call('PUT /scenarios/:name', { params: { name: 'lean' }, body: { defaults: { serviceLevel: 0.8 } } });
  await client.call('POST /backtests', { body: { from: '2024-03-01', to: '2024-03-20' } });
});

afterAll(async () => {
  await bridge?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Everything the admin API can tell of the workspace and the app, read through the typed client. */
async function fingerprint() {
  const transfers = await client.call('GET /transfers', { query: { limit: 10_000 } });
  return JSON.stringify({
    summary: await client.call('GET /summary'),
    runs: await client.call('GET /backtests'),
    scenarios: await client.call('GET /scenarios'),
    lean: await client.call('GET /scenarios/:name', { params: { name: 'lean' } }),
    transfers: transfers.proposals.map((p) => [p.referenceId, p.approvalBatchId]),
    workspaces: await client.call('GET /workspaces'),
    listener: await client.call('GET /listener'),
  });
}

/** A value of the wrong type for a schema; undefined where every value fits. */
function wrongValue(schema: TSchema): unknown {
  switch (schema[Kind]) {
    case 'String':
      return 12345;
    case 'Number':
    case 'Integer':
      return 'many';
    case 'Boolean':
      return 'yes';
    case 'Array':
      return 'a list';
    case 'Object':
    case 'Record':
      return 5;
    case 'Union':
      return { neither: true };
    default:
      return undefined;
  }
}

/** A path value the schema refuses, as text; undefined where every text fits. */
function wrongText(schema: TSchema): string | undefined {
  if (schema[Kind] === 'Union') return 'nonsense';
  if (schema[Kind] === 'Integer' || schema[Kind] === 'Number') return '1.5x';
  if (schema[Kind] === 'Boolean') return 'maybe';
  if (schema[Kind] === 'String' && typeof schema.maxLength === 'number') return 'x'.repeat(schema.maxLength + 1);
  if (schema[Kind] === 'String' && schema.minLength === 1) return '';
  return undefined;
}

interface Case {
  route: string;
  what: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The field the problem must name, as a JSON pointer into its part. */
  field: string;
  slug: 'invalid-path' | 'invalid-query' | 'invalid-body';
}

/** Values that fit a route's path params, so that only the part under test is wrong. */
function fittingParams(route: AnyRoute): Record<string, string> {
  const props = route.params ? (route.params as TObject).properties : {};
  return Object.fromEntries(
    Object.entries(props).map(([name, s]) => [
      name,
      s[Kind] === 'Union'
        ? String((s.anyOf as { const: string }[])[0].const)
        : s.type === 'integer'
          ? '1'
          : name === '*'
            ? 'Items'
            : 'x1',
    ]),
  );
}

function casesOf(key: string, route: AnyRoute): Case[] {
  const cases: Case[] = [];
  const params = fittingParams(route);
  if (route.params) {
    for (const [name, schema] of Object.entries((route.params as TObject).properties)) {
      const text = wrongText(schema);
      if (text !== undefined && text !== '')
        cases.push({
          route: key,
          what: `param ${name}`,
          params: { ...params, [name]: text },
          field: `/${name}`,
          slug: 'invalid-path',
        });
    }
  }
  if (route.query) {
    cases.push({
      route: key,
      what: 'an unknown query parameter',
      params,
      query: { bogus: '1' },
      field: '/bogus',
      slug: 'invalid-query',
    });
    for (const [name, schema] of Object.entries((route.query as TObject).properties)) {
      const text = wrongText(schema);
      if (text !== undefined)
        cases.push({
          route: key,
          what: `query ${name}`,
          params,
          query: { [name]: text },
          field: `/${name}`,
          slug: 'invalid-query',
        });
    }
    for (const name of (route.query as TObject).required ?? [])
      cases.push({ route: key, what: `no query ${name}`, params, query: {}, field: `/${name}`, slug: 'invalid-query' });
  }
  const body = route.body as TSchema | undefined;
  if (body && body[Kind] === 'Object') {
    const object = body as TObject;
    cases.push({ route: key, what: 'a body that is an array', params, body: [1], field: '', slug: 'invalid-body' });
    if (route.bodyOptional)
      cases.push({ route: key, what: 'a body that is null', params, body: null, field: '', slug: 'invalid-body' });
    if (object.additionalProperties === false)
      cases.push({
        route: key,
        what: 'an unknown field',
        params,
        body: { bogus: 1 },
        field: '/bogus',
        slug: 'invalid-body',
      });
    for (const [name, schema] of Object.entries(object.properties)) {
      const value = wrongValue(schema);
      if (value !== undefined)
        cases.push({
          route: key,
          what: `field ${name}`,
          params,
          body: { [name]: value },
          field: `/${name}`,
          slug: 'invalid-body',
        });
    }
  }
  return cases;
}

describe('admin API contract', () => {
  it('refuses a wrong param, query parameter or body field of any route, naming it, and changes nothing', async () => {
    const before = await fingerprint();
    const cases = ROUTES.flatMap(([key, route]) => casesOf(key, route));
    const covered = new Set<string>();
    for (const c of cases) {
      const { method, path } = routeRequest(c.route, { params: c.params, query: c.query });
      expect(['GET', 'POST', 'PUT', 'DELETE'], c.route).toContain(method);
      const res = await bridge.invoke({ method, path, body: c.body });
      const problem = res.body as { type: string; detail: string; errors?: { path: string; message: string }[] };
      const label = `${c.route}: ${c.what} → ${res.status} ${problem?.detail}`;
      expect(res.status, label).toBe(400);
      expect(problem.type, label).toBe(`urn:replenishment-workbench:problem:${c.slug}`);
      expect(
        problem.errors?.map((e) => e.path),
        label,
      ).toContain(c.field);
      // In words, not the validator's: no "Expected …" text reaches a user.
      for (const e of problem.errors ?? []) expect(e.message, label).not.toMatch(/^Expected/);
      covered.add(c.route);
    }
    expect(await fingerprint()).toBe(before);

    // Every route that takes anything has its inputs tried; the others take nothing a caller could get wrong.
    const takingInput = ROUTES.filter(
      ([, r]) =>
        r.query ||
        (r.body && r.body[Kind] === 'Object') ||
        Object.values(r.params ? (r.params as TObject).properties : {}).some((s) => wrongText(s) !== undefined),
    );
    expect([...covered].sort()).toEqual(takingInput.map(([k]) => k).sort());
    console.log(
      `admin contract: ${cases.length} wrong inputs over ${covered.size} of ${ROUTES.length} routes, all 400`,
    );
  });

  it("reaches every route of the table through the renderer's typed client", async () => {
    // Reading routes only: a route the router does not know answers "no endpoint", one it knows answers otherwise.
    for (const [key, route] of ROUTES) {
      if (!key.startsWith('GET ')) continue;
      const { method, path } = routeRequest(key, { params: fittingParams(route) });
      const res = await bridge.invoke({ method, path });
      expect(String((res.body as { detail?: string })?.detail ?? ''), key).not.toMatch(/^no endpoint/);
    }
    // The OpenAPI document describes each route from the same table: its path, method, params and body.
    const doc = (await client.call('GET /openapi')) as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; requestBody?: unknown }>>;
    };
    for (const [key, route] of ROUTES) {
      const [method, path] = key.split(' ');
      const op = doc.paths[`/_workbench${path.replace(/:(\w+)/g, '{$1}').replace('*', '{*}')}`]?.[method.toLowerCase()];
      expect(op, key).toBeDefined();
      const names = Object.keys({
        ...(route.params ? (route.params as TObject).properties : {}),
        ...(route.query ? (route.query as TObject).properties : {}),
      });
      expect(op.parameters?.map((p) => p.name).sort() ?? [], key).toEqual(names.sort());
      expect(op.requestBody !== undefined, key).toBe(route.body !== undefined);
    }

    const run = (await client.call('GET /backtests')).runs[0];
    // Tables asked for as Arrow columns come back as the rows their JSON holds: nested KPIs, null rates, parsed
    // details, absent fields left out.
    for (const level of ['location', 'style'] as const) {
      const params = { runId: run.runId, level };
      const { groups } = await client.call('GET /backtests/:runId/groups/:level', { params });
      const arrow = await client.arrow('GET /backtests/:runId/groups/:level', { params });
      expect(groups.length).toBeGreaterThan(1);
      expect(arrow).toEqual({ rows: groups, total: groups.length });
    }
    const page = await client.call('GET /transfers', { query: { limit: 10_000 } });
    expect(page.proposals.some((p) => p.approvalBatchId) && page.proposals.some((p) => !p.approvalBatchId)).toBe(true);
    expect(await allProposals(client)).toEqual(page.proposals);
    const days = await client
      .call('GET /backtests/:runId/styles/:styleId/days', {
        params: { runId: run.runId, styleId: 'ST-missing' },
      })
      .catch((e: Error) => e);
    expect(days).toBeInstanceOf(Error);
    expect((await client.call('GET /backtests/:runId', { params: { runId: run.runId } })).run.runId).toBe(run.runId);
  });
});
