/**
 * Hostile input: thousands of generated bad requests — wrong types, huge strings, deep nesting, nulls, NaN and
 * negative numbers, duplicate ids, huge arrays, invalid UTF-8, wrong content types, queries out of range. Each
 * must be answered 4xx with a problem body, never 5xx; the server stays up; the workspace is unchanged.
 * Most go through `inject` (thousands, quickly); a share goes over real HTTP.
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASETS, getDataset, type DatasetDef } from '../engine/model/datasets.js';
import { deleteRecordSchema } from '../engine/ingest/validate.js';
import { validRecords, type Rec } from './fixtures.js';
import { setAt, sitesIn, type Site } from './schema-sites.js';
import { testServer, type TestServer } from './api-helpers.js';
import { fillForHostileRequests, workspaceState as workspaceStateOf } from './hostile-workspace.js';

interface HostileRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** Raw bytes or text as sent; undefined: no body. */
  body?: string | Uint8Array;
  /** undefined: application/json when there is a body; null: none at all. */
  contentType?: string | null;
  /** A JSON pointer the answer must name among its errors. */
  expectPath?: string;
}

let t: TestServer;
let token: string;
const tally = {
  tried: 0,
  overHttp: 0,
  status5xx: 0,
  byStatus: new Map<number, number>(),
  stateChecks: 0,
  stateChanged: 0,
};
let before: unknown;

const VALID = validRecords();
const bodyOf = (d: DatasetDef, records: unknown[]) => ({ [d.envelope]: records });
const json = (v: unknown) => JSON.stringify(v);

async function send(r: HostileRequest, overHttp = false): Promise<{ status: number; type: string; text: string }> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-tenant': t.server.info.tenant };
  if (r.body !== undefined && r.contentType !== null) headers['content-type'] = r.contentType ?? 'application/json';
  tally.tried++;
  if (overHttp) {
    tally.overHttp++;
    const res = await fetch(t.url + r.url, { method: r.method, headers, body: r.body as RequestInit['body'] });
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  }
  const res = await t.server.app.inject({
    method: r.method,
    url: r.url,
    headers,
    payload: r.body === undefined ? undefined : Buffer.from(r.body),
  });
  return { status: res.statusCode, type: String(res.headers['content-type'] ?? ''), text: res.body };
}

/** The request is answered 4xx with a problem body naming what was wrong. */
async function refused(r: HostileRequest, overHttp = false): Promise<{ status: number; text: string }> {
  const res = await send(r, overHttp);
  tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
  if (res.status >= 500) tally.status5xx++;
  const what = `${r.method} ${r.url.slice(0, 120)} ${String(r.body ?? '').slice(0, 200)}`;
  expect(res.status, `${what} → ${res.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what} → ${res.text.slice(0, 300)}`).toBeLessThan(500);
  expect(res.type, what).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(res.text) as {
    status: number;
    title: string;
    detail: string;
    errors?: { path: string }[];
  };
  expect(problem.status).toBe(res.status);
  expect(problem.detail.length, what).toBeGreaterThan(0);
  if (r.expectPath !== undefined) {
    const at = r.expectPath;
    expect(
      problem.errors?.some((e) => e.path === at || e.path.startsWith(`${at}/`)),
      `${what} → ${res.text.slice(0, 500)}`,
    ).toBe(true);
  }
  return res;
}

const workspaceState = () => workspaceStateOf(t, token);

async function expectUnchanged(): Promise<void> {
  const now = await workspaceState();
  tally.stateChecks++;
  if (JSON.stringify(now) !== JSON.stringify(before)) tally.stateChanged++;
  expect(now).toEqual(before);
}

// ---- generators ---------------------------------------------------------------------------------------------

/** Values that break a field of this schema for sure (null only where the field is required). */
function wrongValues(s: TSchema, required: boolean): unknown[] {
  // (An empty list is a fine value for an array field.)
  const out: unknown[] = [{}, [null], { nested: { deeper: [1, 'two'] } }, ...(s.type === 'array' ? [] : [[]])];
  if (required) out.push(null);
  if (s.type !== 'boolean') out.push(true, false);
  if (s.type === 'string' || s.anyOf) {
    out.push(12, -1, 0, 1.5, -1e308);
    // (A field longer than a body may be, such as an image's data, is the body limit's business: 413.)
    if (typeof s.maxLength === 'number' && s.maxLength < 100_000)
      out.push('x'.repeat(s.maxLength + 1), '\u{1F600}'.repeat(s.maxLength + 1));
    if (s.minLength === 1) out.push('');
    if (s.format) out.push('not a date', '2024-02-30T00:00:00Z', '9999-99-99');
    if (s.anyOf) out.push('none of these');
  } else if (s.type === 'number' || s.type === 'integer') {
    out.push('12', 'NaN', 'Infinity', '-1', '');
    if (typeof s.minimum === 'number') out.push(s.minimum - 1, s.minimum - 0.5, -1e308);
    if (typeof s.maximum === 'number') out.push(s.maximum + 1, 1e308);
    if (s.type === 'integer') out.push(1.5, 0.25);
  } else if (s.type === 'boolean') {
    out.push('true', 1, 0, 'false');
  } else if (s.type === 'array') {
    out.push('a list', 7);
    if (typeof s.minItems === 'number' && s.minItems > 0) out.push([]);
  }
  return out;
}

/** Unknown fields hold anything; they are ignored, so they ride along on an otherwise broken record. */
const noise: fc.Arbitrary<Rec> = fc.dictionary(
  fc
    .string({ minLength: 1, maxLength: 12 })
    .filter((k) => !/^(__proto__|constructor)$/.test(k))
    .map((k) => `zz${k}`),
  fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    // (Deeper nesting goes as raw text below: JSON.stringify itself recurses.)
    fc.integer({ min: 1, max: 500 }).map((n) => JSON.parse('['.repeat(n) + ']'.repeat(n))),
    fc.string({ unit: 'grapheme', maxLength: 5000 }),
    fc.constant(null),
  ),
  { maxKeys: 3 },
);

/** A copy of a valid record whose key strings end with `-n`, so fillers in one batch are not duplicates. */
function keyed(d: DatasetDef, record: Rec, n: number): Rec {
  const copy = structuredClone(record);
  for (const k of d.key)
    if (typeof copy[k] === 'string' && !(d.record.properties[k] as TSchema).format) copy[k] = `${copy[k]}-H${n}`;
  return copy;
}

/** A batch of valid fillers and one record with one field broken, as an upsert, a DELETE or a picked file. */
const brokenRecord: fc.Arbitrary<HostileRequest> = fc.constantFrom(...DATASETS).chain((d) => {
  const deletable = d.deletable;
  return fc
    .record({
      mode: deletable
        ? fc.constantFrom<'upsert' | 'delete' | 'file'>('upsert', 'delete', 'file')
        : fc.constantFrom<'upsert' | 'file'>('upsert', 'file'),
      fillers: fc.integer({ min: 0, max: 3 }),
      pick: fc.nat(),
      valuePick: fc.nat(),
      extra: noise,
      fullLoad: fc.boolean(),
      v1: fc.boolean(),
    })
    .map(({ mode, fillers, pick, valuePick, extra, fullLoad, v1 }) => {
      const schema: TObject = mode === 'delete' ? deleteRecordSchema(d) : d.record;
      const base =
        mode === 'delete'
          ? Object.fromEntries(d.key.filter((k) => k in VALID[d.name]).map((k) => [k, VALID[d.name][k]]))
          : VALID[d.name];
      const fields: Site[] = sitesIn(schema, base);
      const site = fields[pick % fields.length];
      const values = wrongValues(site.schema, site.required);
      const broken = { ...setAt(base, site.path, values[valuePick % values.length]), ...extra };
      const records = [...Array.from({ length: fillers }, (_, i) => keyed(d, base, i)), broken];
      const path = `/${d.envelope}/${fillers}/${site.path.join('/')}`;
      const query = mode === 'upsert' && d.fullLoad && fullLoad ? '?fullLoad=true' : '';
      const url =
        mode === 'file'
          ? `/_workbench/load?file=${encodeURIComponent(d.name)}-0001.json`
          : `${v1 ? '/v1' : ''}/${d.name}${query}`;
      return {
        method: mode === 'delete' ? 'DELETE' : 'POST',
        url,
        body: json(bodyOf(d, records)),
        expectPath: path,
      } as HostileRequest;
    });
});

/** The same record twice in one batch (and, for a DELETE, the same key twice). */
const duplicateIds: fc.Arbitrary<HostileRequest> = fc
  .record({ d: fc.constantFrom(...DATASETS), extra: noise, del: fc.boolean() })
  .map(({ d, extra, del }) => {
    const rec =
      del && d.deletable
        ? Object.fromEntries(d.key.filter((k) => k in VALID[d.name]).map((k) => [k, VALID[d.name][k]]))
        : { ...VALID[d.name], ...extra };
    return {
      method: del && d.deletable ? 'DELETE' : 'POST',
      url: `/${d.name}`,
      body: json(bodyOf(d, [rec, structuredClone(rec)])),
      expectPath: `/${d.envelope}/1`,
    } as HostileRequest;
  });

/** Any JSON that is not an object holding the endpoint's array. */
const wrongEnvelope: fc.Arbitrary<HostileRequest> = fc
  .record({
    d: fc.constantFrom(...DATASETS),
    value: fc.oneof(
      fc.jsonValue({ maxDepth: 4 }),
      fc.constantFrom(null, 0, -1, 1e308, '', 'sales', [], [{}], true),
      fc.integer({ min: 1, max: 500 }).map((n) => JSON.parse('['.repeat(n) + ']'.repeat(n))),
    ),
    wrapInEnvelope: fc.boolean(),
    method: fc.constantFrom('POST', 'DELETE', 'FILE'),
  })
  .filter(({ d, value, wrapInEnvelope }) => {
    // An object holding the array could be a valid (or empty) batch: not this generator's business.
    const body = wrapInEnvelope ? { [d.envelope]: value } : value;
    return !(
      body !== null &&
      typeof body === 'object' &&
      !Array.isArray(body) &&
      Array.isArray((body as Rec)[d.envelope])
    );
  })
  .map(({ d, value, wrapInEnvelope, method }) => {
    const body = json(wrapInEnvelope ? { [d.envelope]: value } : value);
    if (method === 'FILE')
      return { method: 'POST', url: `/_workbench/load?file=${d.name}.json`, body } as HostileRequest;
    return {
      method: method === 'DELETE' && d.deletable ? 'DELETE' : 'POST',
      url: `/${d.name}`,
      body,
    } as HostileRequest;
  });

const INVALID_UTF8 = [
  [0xff],
  [0xc3, 0x28],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0x80],
];

/** Bytes that are not JSON or not UTF-8: cut valid bodies, NaN and Infinity literals, broken byte sequences. */
const badBytes: fc.Arbitrary<HostileRequest> = fc
  .record({
    d: fc.constantFrom(...DATASETS),
    kind: fc.constantFrom('cut', 'literal', 'utf8', 'escape'),
    at: fc.nat(),
    literal: fc.constantFrom(
      'NaN',
      '-NaN',
      'Infinity',
      '-Infinity',
      '01',
      '+1',
      '.5',
      '0x1F',
      '1e',
      'undefined',
      "'x'",
      '1_000',
    ),
    seq: fc.constantFrom(...INVALID_UTF8),
  })
  .map(({ d, kind, at, literal, seq }) => {
    const text = json(bodyOf(d, [VALID[d.name]]));
    const url = `/${d.name}`;
    if (kind === 'cut')
      return { method: 'POST', url, body: text.slice(0, 1 + (at % (text.length - 1))) } as HostileRequest;
    if (kind === 'literal') {
      // Replace the first number (or, where there is none, the first string value) with a literal JSON does not have.
      const m = /":(-?\d+(\.\d+)?)(?=[,}\]])/.exec(text) ?? /":("[^"]*")/.exec(text)!;
      return {
        method: 'POST',
        url,
        body: text.slice(0, m.index + 2) + literal + text.slice(m.index + m[0].length),
      } as HostileRequest;
    }
    if (kind === 'escape') {
      // A lone surrogate escape in the record's first string value: well-formed JSON, not storable text.
      const m = /:"([^"]*)"/.exec(text)!;
      return {
        method: 'POST',
        url,
        body: `${text.slice(0, m.index + 2)}\\ud800${text.slice(m.index + 2)}`,
      } as HostileRequest;
    }
    const bytes = Buffer.from(text);
    const cut = at % bytes.length;
    return {
      method: 'POST',
      url,
      body: Buffer.concat([bytes.subarray(0, cut), Buffer.from(seq), bytes.subarray(cut)]),
    } as HostileRequest;
  });

/** A valid body under a content type the endpoint does not take. */
const wrongContentType: fc.Arbitrary<HostileRequest> = fc
  .record({
    d: fc.constantFrom(...DATASETS),
    type: fc.constantFrom(
      'text/plain',
      'text/json',
      'application/xml',
      'text/xml',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/jsonx',
      'application/problem+json',
      'application/json-patch+json',
      'image/png',
      'text/html; charset=utf-8',
      'application/x-www-form-urlencoded',
      null,
    ),
    file: fc.boolean(),
  })
  .map(
    ({ d, type, file }) =>
      ({
        method: 'POST',
        url: file ? `/_workbench/load?file=${d.name}.json` : `/${d.name}`,
        body: json(bodyOf(d, [VALID[d.name]])),
        contentType: type,
      }) as HostileRequest,
  );

const badInteger = fc.oneof(
  fc.integer({ max: -1 }).map(String),
  fc.constantFrom('', 'abc', '1.5', '1e3', '0x10', '١٢', '10000000000000000', ' 1', 'NaN', 'Infinity', '-0.0'),
  // (-0 is a zero, and a fine offset.)
  fc.string({ maxLength: 20 }).filter((s) => !/^-?\d+$/.test(s) || /^-0*[1-9]/.test(s)),
);

/** Query strings out of range or malformed, on reads and on writes with a valid body. */
const badQuery: fc.Arbitrary<HostileRequest> = fc.oneof(
  fc
    .record({
      path: fc.constantFrom(
        '/Recommendations/transfers',
        '/Recommendations/stockTargets',
        '/_workbench/transfers',
        '/_workbench/data/Items',
      ),
      name: fc.constantFrom('Offset', 'offset', 'OFFSET'),
      v: badInteger,
    })
    .map(({ path, name, v }) => ({ method: 'GET', url: `${path}?${name}=${encodeURIComponent(v)}` }) as HostileRequest),
  fc
    .record({
      path: fc.constantFrom(
        '/Recommendations/transfers',
        '/Recommendations/stockTargets',
        '/_workbench/transfers',
        '/_workbench/data/Sales',
        '/_workbench/log',
      ),
      v: fc.oneof(badInteger, fc.constantFrom('0', '10001', '99999999')),
    })
    .map(({ path, v }) => ({ method: 'GET', url: `${path}?limit=${encodeURIComponent(v)}` }) as HostileRequest),
  fc.record({ v: fc.string({ maxLength: 30 }), twice: fc.boolean() }).map(
    ({ v, twice }) =>
      ({
        method: 'GET',
        url: twice
          ? '/Recommendations/transfers?Limit=5&limit=6'
          : `/Recommendations/transfers?FromConfirmedDateTime=x${encodeURIComponent(v)}`,
      }) as HostileRequest,
  ),
  fc
    .record({
      d: fc.constantFrom(...DATASETS.filter((x) => x.fullLoad)),
      flag: fc.constantFrom('fullLoad', 'moreRecordsAvailable'),
      v: fc.string({ maxLength: 10 }).filter((s) => !/^(true|false)$/i.test(s)),
      twice: fc.boolean(),
    })
    .map(
      ({ d, flag, v, twice }) =>
        ({
          method: 'POST',
          url: `/${d.name}?${flag}=${encodeURIComponent(v)}${twice ? `&${flag}=true` : ''}`,
          body: json(bodyOf(d, [VALID[d.name]])),
        }) as HostileRequest,
    ),
  fc
    .record({ after: badInteger })
    .map(
      ({ after }) => ({ method: 'GET', url: `/_workbench/log?afterId=${encodeURIComponent(after)}` }) as HostileRequest,
    ),
);

/** The admin API's commands with bodies of the wrong shape: none of them may run, approve or keep anything. */
const notAnObject = fc.oneof(
  fc.constantFrom('null', '[]', '[{}]', '"x"', '7', 'true', '-1'),
  fc
    .jsonValue({ maxDepth: 2 })
    .filter((v) => v === null || typeof v !== 'object' || Array.isArray(v))
    .map(json),
);
const badCommand: fc.Arbitrary<HostileRequest> = fc.oneof(
  notAnObject.map((body) => ({ method: 'POST', url: '/_workbench/recommendations/run', body }) as HostileRequest),
  notAnObject.map((body) => ({ method: 'POST', url: '/_workbench/transfers/approve', body }) as HostileRequest),
  notAnObject.map((body) => ({ method: 'POST', url: '/Batch/stop', body }) as HostileRequest),
  notAnObject.map((body) => ({ method: 'PUT', url: '/_workbench/scenarios/kept', body }) as HostileRequest),
  fc
    .record({
      field: fc.constantFrom('autoApprove', 'description', 'scenario', 'asOf', 'settings'),
      value: fc.oneof(
        fc.constantFrom(1, 'yes', null, [], {}, 'March', '2024-02-30', { defaults: { serviceLevel: 2 } }, { nope: 1 }),
      ),
    })
    .filter(
      ({ field, value }) =>
        !(
          field === 'settings' &&
          value !== null &&
          typeof value === 'object' &&
          !Array.isArray(value) &&
          Object.keys(value).length === 0
        ),
    )
    .filter(({ field, value }) => !(field === 'description' && typeof value === 'string'))
    .map(
      ({ field, value }) =>
        ({ method: 'POST', url: '/_workbench/recommendations/run', body: json({ [field]: value }) }) as HostileRequest,
    ),
  fc
    .record({
      referenceIds: fc.oneof(
        fc.constant([]),
        fc.constant('R000'),
        fc.array(fc.oneof(fc.integer(), fc.constant(null)), { minLength: 1, maxLength: 3 }),
        fc.array(
          fc.string({ maxLength: 90 }).map((s) => `NOPE${s}`),
          { minLength: 1, maxLength: 3 },
        ),
      ),
      description: fc.oneof(fc.constant(undefined), fc.constant(5), fc.constant('d'.repeat(2000))),
      plannedDispatchDate: fc.oneof(fc.constant(undefined), fc.constantFrom('tomorrow', '2024-02-30', 20240301)),
    })
    .map((body) => ({ method: 'POST', url: '/_workbench/transfers/approve', body: json(body) }) as HostileRequest),
  fc
    .record({
      section: fc.constantFrom('defaults', 'redistribution', 'categories', 'unknownSection'),
      value: fc.oneof(
        fc.constantFrom(-1, 'high', null, [], 1e308),
        fc.dictionary(
          fc.constantFrom('serviceLevel', 'tripCost', 'enabled', 'bogus'),
          fc.constantFrom(-1, 2, 'x', null, []),
          { minKeys: 1 },
        ),
      ),
    })
    .filter(
      ({ section, value }) =>
        section === 'unknownSection' ||
        value === null ||
        typeof value !== 'object' ||
        Array.isArray(value) ||
        Object.entries(value).some(
          ([k, v]) =>
            k === 'bogus' ||
            v === null ||
            typeof v !== 'number' ||
            v < 0 ||
            (k === 'serviceLevel' && (v as number) > 0.9999),
        ),
    )
    .map(
      ({ section, value }) =>
        ({ method: 'PUT', url: '/_workbench/scenarios/kept', body: json({ [section]: value }) }) as HostileRequest,
    ),
  fc
    .string({ minLength: 1, maxLength: 100 })
    .filter((n) => !/^[\w.-]{1,80}$/.test(n))
    .map(
      (name) =>
        ({ method: 'PUT', url: `/_workbench/scenarios/${encodeURIComponent(name)}`, body: '{}' }) as HostileRequest,
    ),
  fc
    .record({
      from: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('2025-02-30', '2025-01-10', null, 3)),
      to: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('2024-12-31', '2025-01-01', '9999-12-31', null)),
      jobs: fc.boolean(),
    })
    .filter(
      ({ from, to }) =>
        !(
          typeof from === 'string' &&
          typeof to === 'string' &&
          /^\d{4}-\d{2}-\d{2}$/.test(from) &&
          /^\d{4}-\d{2}-\d{2}$/.test(to) &&
          from <= to &&
          to < '2035'
        ),
    )
    .map(
      ({ from, to, jobs }) =>
        ({
          method: 'POST',
          url: jobs ? '/_workbench/backtests/jobs' : '/_workbench/backtests',
          body: json({ from, to }),
        }) as HostileRequest,
    ),
  fc
    .record({
      id: fc.oneof(fc.constant(null), fc.integer(), fc.array(fc.string(), { maxLength: 2 })),
      secret: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(null)),
      grant: fc.constantFrom('client_credentials', 'password', '', null),
    })
    .map(
      ({ id, secret, grant }) =>
        ({
          method: 'POST',
          url: '/Token',
          body: json({ grant_type: grant, client_id: id, client_secret: secret }),
        }) as HostileRequest,
    ),
);

/** Paths the router cannot read, and segments too long or naming nothing. */
const badPath: fc.Arbitrary<HostileRequest> = fc
  .record({
    // (Not PUT /_workbench/scenarios/NAME: a well-formed name keeps a scenario.)
    prefix: fc.constantFrom(
      '/_workbench/data/Items/',
      '/_workbench/demand/L1/',
      '/_workbench/backtests/',
      '/Sales/',
      '/',
    ),
    segment: fc.oneof(
      fc.constantFrom('%', '%zz', '%ff', '%e0%80', '%c0%af', '%ed%a0%80', 'x%', '%%41'),
      fc.integer({ min: 1001, max: 5000 }).map((n) => 'a'.repeat(n)),
      fc.string({ minLength: 1, maxLength: 20 }).map((s) => `nothing-${encodeURIComponent(s)}`),
    ),
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
  })
  .map(
    ({ prefix, segment, method }) =>
      ({ method, url: prefix + segment, body: method === 'GET' ? undefined : '{}' }) as HostileRequest,
  );

// ---- the runs -------------------------------------------------------------------------------------------------

beforeAll(async () => {
  t = await testServer();
  token = await t.token();
  await fillForHostileRequests(t);
  before = await workspaceState();
});

afterAll(async () => {
  const statuses = [...tally.byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(', ');
  const state = tally.stateChanged
    ? `workspace CHANGED after ${tally.stateChanged} of ${tally.stateChecks} runs`
    : `workspace unchanged (${tally.stateChecks} checks)`;
  console.log(
    `hostile input: ${tally.tried} bodies tried (${tally.overHttp} over HTTP), ${tally.status5xx} answered 5xx, ` +
      `${state}; answers: ${statuses}`,
  );
  await t?.close();
});

const property = (arb: fc.Arbitrary<HostileRequest>, numRuns: number, overHttp = false) =>
  fc.assert(
    fc.asyncProperty(arb, async (r) => {
      await refused(r, overHttp);
    }),
    { numRuns },
  );

/** Each family of bad requests, how many to generate, and whether they go over real HTTP. */
const FAMILIES: [string, fc.Arbitrary<HostileRequest>, number, boolean?][] = [
  ['records with a broken field (wrong type, null, NaN, negative, too long), naming the field', brokenRecord, 1500],
  ['duplicate ids inside a batch', duplicateIds, 200],
  ["bodies that are not an object holding the endpoint's array", wrongEnvelope, 500],
  ['bytes that are not JSON or not UTF-8', badBytes, 500],
  ['valid bodies sent with a wrong content type', wrongContentType, 200],
  ['query strings out of range, also on writes with a valid body', badQuery, 500],
  ['admin commands with bodies of the wrong shape: nothing runs, is approved or kept', badCommand, 500],
  ['paths it cannot read', badPath, 300],
  [
    'all of these over real HTTP',
    fc.oneof(brokenRecord, duplicateIds, wrongEnvelope, badBytes, wrongContentType, badQuery, badCommand, badPath),
    400,
    true,
  ],
];

describe('hostile input', () => {
  for (const [what, arb, numRuns, overHttp] of FAMILIES) {
    it(`refuses ${what}, and changes nothing`, async () => {
      await property(arb, numRuns, overHttp);
      await expectUnchanged();
    }, 120_000);
  }

  it(
    'survives the large ones: megabyte ids and strings, ' +
      'nesting a million deep, huge arrays, bodies over the limit',
    async () => {
      const mb = 'x'.repeat(1 << 20);
      const deep = (n: number, inner = '') => '['.repeat(n) + inner + ']'.repeat(n);
      const big: HostileRequest[] = [
        // A megabyte id repeated in each of a thousand errors would make a gigabyte answer.
        {
          method: 'POST',
          url: '/Items',
          body: json({ items: [{ itemId: mb, skus: Array.from({ length: 1500 }, () => ({})) }] }),
          expectPath: '/items/0/skus/0',
        },
        {
          method: 'POST',
          url: '/Brands',
          body: `{"brands":[{"brandId":"B","code":${json(mb)}}]}`,
          expectPath: '/brands/0/code',
        },
        {
          method: 'POST',
          url: '/Brands',
          body: `{"brands":[{"brandId":"B","code":"C","extra":${deep(1_000_000)}},{"brandId":null}]}`,
          expectPath: '/brands/1/brandId',
        },
        {
          method: 'POST',
          url: '/Brands',
          body: `{"brands":[{"brandId":"B","code":"C","extra":${deep(1_000_000, '"\\ud800"')}}]}`,
        },
        {
          method: 'POST',
          url: '/Brands',
          body:
            '{"brands":[{"brandId":"B","code":"C","extra":' +
            `${deep(200_000, Array(20_000).fill('"\\udc00"').join(','))}}]}`,
        },
        { method: 'POST', url: '/Brands', body: deep(1_000_000) },
        { method: 'POST', url: '/Brands', body: `{"brands":${deep(1_000_000)}}` },
        {
          method: 'POST',
          url: '/Brands',
          body: `{"brands":[${Array(200_000).fill('{}').join(',')}]}`,
          expectPath: '/brands/0/brandId',
        },
        {
          method: 'POST',
          url: '/Brands',
          body:
            '{"brands":[{"brandId":"B"}],' +
            `${Array.from({ length: 50_000 }, (_, i) => `"k${i}${'y'.repeat(40)}":1`).join(',')}}`,
          expectPath: '/brands/0/code',
        },
        // A field name of megabytes; of two "brands" the last counts.
        {
          method: 'POST',
          url: '/Brands',
          body: `{"brands":[{"brandId":"B","code":"C"}],${json('k'.repeat(4 << 20))}:1,"brands":[{"brandId":null}]}`,
          expectPath: '/brands/0/brandId',
        },
        { method: 'POST', url: '/Brands', body: Buffer.alloc(getDataset('Brands').bodyLimit + 1, 0x20) },
        {
          method: 'POST',
          url: '/_workbench/load?file=Brands.json',
          body: `{"brands":7,"x":${deep(1_000_000)}}`,
          expectPath: '/brands',
        },
      ];
      for (const r of big) {
        const res = await refused(r);
        // An answer lists at most a thousand errors, each of bounded size, whatever the body repeated.
        expect(res.text.length, r.url).toBeLessThan(4 << 20);
      }
      await expectUnchanged();
      // Still answering, and still taking a good request.
      expect((await t.call('POST', '/Colors', { colors: [{ colorId: 'AFTER', code: 'A' }] })).status).toBe(200);
    },
    120_000,
  );
});
