/**
 * Every number a scenario sets has bounds a user could mean, and the settings of a run, a kept scenario and a sweep's
 * values are checked by the one schema: a value out of bounds is a 400 naming its field, wherever it is sent.
 */
import type { TSchema } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsOverrideSchema } from '../engine/recommend/settings-schema.js';
import { SWEEPABLE } from '../engine/service/sweep-grid.js';
import { testServer, type TestServer } from './api-helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await testServer();
});
afterAll(async () => t?.close());

/** Every number and whole number in a schema, with its place. */
function numbersIn(schema: TSchema, at = ''): { at: string; schema: TSchema }[] {
  if (schema.type === 'number' || schema.type === 'integer') return [{ at, schema }];
  const out: { at: string; schema: TSchema }[] = [];
  for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, TSchema>))
    out.push(...numbersIn(s, `${at}/${name}`));
  for (const s of Object.values((schema.patternProperties ?? {}) as Record<string, TSchema>))
    out.push(...numbersIn(s, `${at}/{id}`));
  return out;
}

/** `redistribution.tripCost` set to v, as a scenario's body. */
function scenarioWith(path: string, v: unknown): Record<string, unknown> {
  const parts = path.split('.');
  return parts.reduceRight<unknown>((inner, part) => ({ [part]: inner }), v) as Record<string, unknown>;
}

interface Refusal {
  status: number;
  errors: { path: string; message: string }[];
}
const refusal = (r: { status: number; json: { errors?: Refusal['errors'] } }): Refusal => ({
  status: r.status,
  errors: r.json.errors ?? [],
});

describe('settings bounds', () => {
  it('bound every number a scenario sets, below and above', () => {
    const numbers = numbersIn(SettingsOverrideSchema);
    expect(numbers.length).toBeGreaterThan(15);
    for (const { at, schema } of numbers) {
      expect(typeof schema.minimum, at).toBe('number');
      expect(typeof schema.maximum, at).toBe('number');
    }
  });

  it("refuse a value out of bounds alike in a run's settings, a kept scenario and a sweep, by field", async () => {
    const before = await t.call('GET', '/_workbench/scenarios');
    let tried = 0;
    for (const s of SWEEPABLE) {
      const pointer = `/${s.path.replace('.', '/')}`;
      const outside = [s.minimum! - 1, s.maximum! + 1, 1e308, 2 ** 53];
      if (s.integer) outside.push(s.minimum! + 0.5);
      for (const v of outside) {
        const what = `${s.path} = ${v}`;
        const kept = refusal(await t.call('PUT', '/_workbench/scenarios/bounds', scenarioWith(s.path, v)));
        const run = refusal(
          await t.call('POST', '/_workbench/recommendations/run', { settings: scenarioWith(s.path, v) }),
        );
        const sweep = refusal(
          await t.call('POST', '/_workbench/sweeps', {
            from: '2025-01-01',
            to: '2025-01-07',
            vary: [{ setting: s.path, values: [v] }],
          }),
        );
        expect(kept.status, what).toBe(400);
        expect(kept.errors, what).toEqual([{ path: pointer, message: expect.stringMatching(/^must be /) }]);
        // The run's settings are one field of its body: the same error, under /settings.
        expect(run, what).toEqual({ status: 400, errors: [{ ...kept.errors[0], path: `/settings${pointer}` }] });
        expect(sweep, what).toEqual({
          status: 400,
          errors: [{ path: '/vary/0/values/0', message: expect.stringMatching(/is (below|above) its|not a whole/) }],
        });
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(60);
    // Nothing was kept, nothing ran.
    expect((await t.call('GET', '/_workbench/scenarios')).json).toEqual(before.json);
    expect((await t.call('GET', '/_workbench/transfers')).json.total).toBe(0);
  });

  it('name every field out of bounds at once, per category too', async () => {
    const settings = {
      demandWindowDays: 2 ** 53,
      redistribution: { maxTripsPerStore: 1e308, tripCost: -1 },
      categories: { TEE: { leadTimeDays: 1e9, serviceLevel: 1 }, ['x'.repeat(81)]: {} },
    };
    const run = await t.call('POST', '/_workbench/recommendations/run', { settings });
    expect(run.status).toBe(400);
    expect(run.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(run.json.errors).toEqual(
      expect.arrayContaining([
        { path: '/settings/demandWindowDays', message: 'must be at most 1095' },
        { path: '/settings/redistribution/maxTripsPerStore', message: 'must be at most 100' },
        { path: '/settings/redistribution/tripCost', message: 'must be at least 0' },
        { path: '/settings/categories/TEE/leadTimeDays', message: 'must be at most 3660' },
        { path: '/settings/categories/TEE/serviceLevel', message: 'must be at most 0.9999' },
        {
          path: `/settings/categories/${'x'.repeat(81)}`,
          message: 'must be an object whose keys are ids (1 to 80 characters)',
        },
      ]),
    );
    expect(run.json.detail).toMatch(/settings\/demandWindowDays: must be at most 1095/);
  });

  it('refuse to run a scenario kept under looser bounds, naming it and the field, and still show it', async () => {
    // As a workspace kept it before the bounds: the settings' table holds what was sent.
    const ws = t.server.workbench.workspace;
    const old = { demandWindowDays: 5000, redistribution: { maxTripsPerStore: 1000 } };
    await ws.exclusive(() =>
      ws.run('INSERT OR REPLACE INTO workspace_settings VALUES ($1, $2)', ['scenario:loose', JSON.stringify(old)]),
    );
    expect((await t.call('GET', '/_workbench/scenarios/loose')).json).toEqual({ scenario: old });
    const run = await t.call('POST', '/_workbench/recommendations/run', { scenario: 'loose' });
    expect(run.status).toBe(400);
    expect(run.json.detail).toMatch(/^the kept scenario "loose" holds settings out of their bounds/);
    expect(run.json.errors).toEqual([
      { path: '/demandWindowDays', message: 'must be at most 1095' },
      { path: '/redistribution/maxTripsPerStore', message: 'must be at most 100' },
    ]);
    const sweep = await t.call('POST', '/_workbench/sweeps', {
      from: '2025-01-01',
      to: '2025-01-07',
      scenario: 'loose',
      vary: [{ setting: 'serviceLevel', values: [0.9] }],
    });
    expect({ status: sweep.status, detail: sweep.json.detail }).toEqual({ status: 400, detail: run.json.detail });
    expect((await t.call('GET', '/_workbench/transfers')).json.total).toBe(0);
  });
});
