/**
 * A seeded storm of hostile requests, as raw bytes: every POST, PUT and DELETE endpoint of the service and the admin
 * API, /Token and /Batch, each either broken in its body, query or settings, or well-formed and then broken in one
 * way that must refuse it on its own (its method, path, headers, framing, encoding or credentials). A request whose
 * base would change the workspace is never sent without such a breakage, so any breakage that fails to refuse
 * shows as a changed workspace.
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import { DATASETS, type DatasetDef } from '../engine/model/datasets.js';
import { deleteRecordSchema } from '../engine/ingest/validate.js';
import { SWEEPABLE } from '../engine/service/sweep-grid.js';
import { validRecords, type Rec } from './fixtures.js';
import { setAt, sitesIn } from './schema-sites.js';

/** One request of the storm. */
export interface StormRequest {
  /** What it is, for a failure's message: the endpoint and the breakage. */
  what: string;
  bytes: Buffer;
  /**
   * Sent on a connection of its own and read until the server closes it: its framing makes the server read more
   * than one request out of it, or none whole.
   */
  alone?: boolean;
  /** The client closes its side after sending (a body cut short). */
  endAfter?: boolean;
  /** The path as sent: a routed answer names it as its `instance`. */
  path: string;
}

export interface Credentials {
  token: string;
  tenant: string;
  clientId: string;
  clientSecret: string;
}

/** mulberry32: small, fast and the same on every machine. */
export function seeded(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
  return { next, int, pick, chance: (p: number) => next() < p };
}
export type Random = ReturnType<typeof seeded>;

// ---- bases: one request per endpoint, broken or well-formed ------------------------------------------------------

interface Base {
  method: string;
  path: string;
  body?: Buffer;
  /** The body's content type (JSON when there is a body and none is given). */
  type?: string;
  /** Well-formed: the server would take it, so it is only ever sent broken another way. */
  takes: boolean;
  /** Answered without a token (/Token). */
  open?: boolean;
  what: string;
}

const VALID = validRecords();
const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const deep = (n: number) => Buffer.from('['.repeat(n) + ']'.repeat(n));

/** A value that is wrong for a field of this schema for sure (null only where the field is required). */
function wrongFor(s: TSchema, required: boolean, r: Random): unknown {
  if (required && r.chance(0.1)) return null;
  if (s.type === 'string' || s.anyOf)
    return r.pick([
      12,
      -1e308,
      true,
      {},
      ...(typeof s.maxLength === 'number' && s.maxLength < 5000 ? ['x'.repeat(s.maxLength + 1)] : []),
    ]);
  if (s.type === 'number' || s.type === 'integer')
    return r.pick(['12', 'NaN', [], ...(typeof s.maximum === 'number' ? [s.maximum * 10 + 1, 1e308] : [])]);
  if (s.type === 'boolean') return r.pick(['true', 1]);
  if (s.type === 'array') return r.pick(['a list', 7, { a: 1 }]);
  return r.pick([7, 'x', [1]]);
}

/** A copy of the record with its string keys made new, so it would be a record the workspace does not hold. */
function fresh(d: DatasetDef, record: Rec, n: number): Rec {
  const copy = structuredClone(record);
  for (const k of d.key)
    if (typeof copy[k] === 'string' && !(d.record.properties[k] as TSchema).format) copy[k] = `${copy[k]}-S${n}`;
  return copy;
}

function datasetBase(r: Random, n: number): Base {
  const d = r.pick(DATASETS);
  const del = d.deletable && r.chance(0.3);
  const method = del ? 'DELETE' : 'POST';
  const name = r.pick([d.name, d.name.toUpperCase(), d.name.toLowerCase(), `v1/${d.name}`]);
  const schema: TObject = del ? deleteRecordSchema(d) : d.record;
  const base = del
    ? Object.fromEntries(d.key.filter((k) => k in VALID[d.name]).map((k) => [k, VALID[d.name][k]]))
    : VALID[d.name];
  const record = fresh(d, base, n);
  const query =
    d.fullLoad && !del && r.chance(0.15)
      ? r.pick(['?fullLoad=maybe', '?fullLoad=true&FullLoad=false', '?moreRecordsAvailable=1'])
      : '';
  const path = `/${name}${query}`;
  const kind = r.int(6);
  if (kind === 0) return { method, path, body: json({ [d.envelope]: [record] }), takes: query === '', what: 'valid' };
  if (kind === 1) {
    const site = r.pick(sitesIn(schema, record));
    return {
      method,
      path,
      body: json({ [d.envelope]: [setAt(record, site.path, wrongFor(site.schema, site.required, r))] }),
      takes: false,
      what: `broken ${site.path.join('.')}`,
    };
  }
  if (kind === 2) return { method, path, body: json({ [d.envelope]: [record, record] }), takes: false, what: 'twice' };
  if (kind === 3)
    return {
      method,
      path,
      body: json(r.pick([{ [d.envelope]: 7 }, { [d.envelope]: null }, [], 'records', null, { other: [] }])),
      takes: false,
      what: 'envelope',
    };
  if (kind === 4 && r.chance(0.1))
    return { method, path, body: deep(r.pick([1000, 100_000])), takes: false, what: 'nested' };
  return {
    method,
    path,
    body: json({ [d.envelope]: [{ ...record, [d.key[0]]: r.pick(['', null, 'k'.repeat(81)]) }] }),
    takes: false,
    what: 'key',
  };
}

function tokenBase(r: Random, c: Credentials): Base {
  const fields: Record<string, string> = {
    grant_type: r.pick(['client_credentials', 'password', '', 'client_credentials ']),
    client_id: r.pick([c.clientId, 'someone', '']),
    client_secret: r.pick([`${c.clientSecret}x`, '', 'x'.repeat(500)]),
  };
  if (r.chance(0.3)) delete fields[r.pick(Object.keys(fields))];
  const form = r.chance(0.5);
  return {
    method: 'POST',
    path: r.pick(['/Token', '/token', '/v1/Token']),
    body: form ? Buffer.from(new URLSearchParams(fields).toString()) : json(fields),
    type: form ? 'application/x-www-form-urlencoded' : undefined,
    takes: false,
    open: true,
    what: 'credentials',
  };
}

/** Settings of a run or a scenario with one value out of its bounds, of the wrong type, or a field unknown. */
function brokenSettings(r: Random): Record<string, unknown> {
  const s = r.pick(SWEEPABLE);
  const v = r.pick([s.maximum! + 1, s.minimum! - 1, 2 ** 53, 1e308, -1e308, '7', null, [], s.minimum! + 0.5]);
  const value = s.integer || typeof v !== 'number' || v > s.maximum! || v < s.minimum! ? v : 'seven';
  const [section, name] = s.path.includes('.') ? s.path.split('.') : [undefined, s.path];
  const settings: Record<string, unknown> = section ? { [section]: { [name]: value } } : { [name]: value };
  if (r.chance(0.2)) settings[r.pick(['bogus', 'Defaults', 'demandwindowdays'])] = 1;
  if (r.chance(0.1)) settings.categories = { ['c'.repeat(r.pick([0, 81]))]: { serviceLevel: 0.9 } };
  return settings;
}

function adminBase(r: Random, n: number): Base {
  const w = r.pick(['/_workbench', '/_WORKBENCH', '/_Workbench']);
  const bad = (method: string, path: string, body: unknown, what: string): Base => ({
    method,
    path: `${w}${path}`,
    body: body === undefined ? undefined : json(body),
    takes: false,
    what,
  });
  const good = (method: string, path: string, body: unknown, what: string): Base => ({
    ...bad(method, path, body, what),
    takes: true,
  });
  switch (r.int(16)) {
    case 0:
      return r.chance(0.2)
        ? good('POST', '/recommendations/run', {}, 'run')
        : bad(
            'POST',
            '/recommendations/run',
            r.chance(0.8)
              ? { settings: brokenSettings(r) }
              : r.pick([{ asOf: 'March' }, { autoApprove: 'yes' }, { scenario: 7 }, null, [], { nope: 1 }]),
            'run',
          );
    case 1:
      return r.chance(0.2)
        ? good('POST', '/transfers/approve', {}, 'approve')
        : bad(
            'POST',
            '/transfers/approve',
            r.pick([{ referenceIds: 'R000' }, { referenceIds: [7] }, { description: 5 }, { plannedDispatchDate: 'x' }]),
            'approve',
          );
    case 2:
      return r.chance(0.2)
        ? good('PUT', '/scenarios/kept', { defaults: { serviceLevel: 0.8 } }, 'scenario')
        : bad('PUT', `/scenarios/${r.pick(['kept', 'storm'])}`, brokenSettings(r), 'scenario');
    case 3:
      return r.chance(0.5)
        ? good('DELETE', '/scenarios/kept', undefined, 'delete scenario')
        : bad('DELETE', `/scenarios/${r.pick(['nope', 'x'.repeat(81), '%20'])}`, undefined, 'delete scenario');
    case 4:
      return r.chance(0.3)
        ? good('POST', '/scenarios/kept/rename', { to: `renamed${n}` }, 'rename')
        : bad('POST', `/scenarios/${r.pick(['kept', 'nope'])}/rename`, r.pick([{ to: '' }, { to: 7 }, {}]), 'rename');
    case 5: {
      const file = r.pick(['Colors.json', 'Colors-0001.json', 'nothing.json']);
      // A file that names no endpoint is told by its body's one array.
      return r.chance(0.3)
        ? good('POST', `/load?file=${file}`, { colors: [{ colorId: `NEW${n}`, code: 'N' }] }, 'load')
        : bad('POST', `/load?file=${file}`, r.pick([{ colors: [{ colorId: 7, code: 'N' }] }, { x: 1 }, []]), 'load');
    }
    case 6: {
      const route = r.pick(['/load/files', '/load/jobs', '/load/preview', '/load/check']);
      return r.chance(0.2) && (route === '/load/files' || route === '/load/jobs')
        ? good(
            'POST',
            route,
            { files: [{ name: 'Colors.json', text: `{"colors":[{"colorId":"F${n}","code":"F"}]}` }] },
            'files',
          )
        : bad(
            'POST',
            route,
            r.pick([{ files: 7 }, { files: [{ name: 'a.json' }] }, { files: [], bogus: 1 }, []]),
            'files',
          );
    }
    case 7:
      return bad(
        'POST',
        r.pick(['/backtests', '/backtests/jobs']),
        r.pick([
          { from: '2025-02-30', to: '2025-03-01' },
          { from: '2025-01-01' },
          { from: '2025-01-01', to: '2024-01-01' },
          { from: '2025-01-01', to: '2025-01-07', settings: brokenSettings(r) },
          { from: 3, to: null },
        ]),
        'backtest',
      );
    case 8: {
      const s = r.pick(SWEEPABLE);
      return bad(
        'POST',
        r.pick(['/sweeps', '/sweeps/jobs']),
        {
          from: '2025-01-01',
          to: '2025-01-07',
          vary: r.pick([
            [{ setting: s.path, values: [s.maximum! + 1] }],
            [{ setting: s.path, values: [s.minimum! - 1, 2 ** 53] }],
            [{ setting: 'nope', values: [1] }],
            [{ setting: s.path, values: Array.from({ length: 201 }, (_, i) => s.minimum! + i / 1000) }],
            [{ setting: s.path, values: ['x'] }],
            [],
          ]),
        },
        'sweep',
      );
    }
    case 9:
      return bad(
        r.pick(['POST', 'DELETE']),
        r.pick(['/backtests/jobs/nope/cancel', '/sweeps/jobs/nope/cancel', '/backtests/nope', '/sweeps/nope']),
        undefined,
        'unknown id',
      );
    case 10:
      return bad('POST', '/sweeps/nope/points/1/scenario', r.pick([{ name: 'x' }, { name: 7 }, {}]), 'sweep point');
    case 11:
      return r.chance(0.3)
        ? good('DELETE', '/full-loads/Locations', undefined, 'full load')
        : bad('DELETE', `/full-loads/${r.pick(['Colors', 'Nope', 'Locations/x'])}`, undefined, 'full load');
    case 12:
      return good('DELETE', '/state', undefined, 'reset');
    case 13:
      return bad(
        'GET',
        r.pick(['/data/Items?limit=0', '/log?afterId=x', '/transfers?zz=1', '/data/Items?Offset=1&offset=2']),
        undefined,
        'query',
      );
    case 14:
      return r.chance(0.5)
        ? { method: 'POST', path: '/Batch/start', takes: true, what: 'batch start' }
        : {
            method: 'POST',
            path: '/Batch/stop',
            body: json(r.pick([{ batchId: 7 }, [], 'x', null, { batchId: ['a'] }])),
            takes: false,
            what: 'batch stop',
          };
    default:
      return { method: 'POST', path: '/Batch/stop', body: json({ batchId: 'x' }), takes: true, what: 'batch stop' };
  }
}

// ---- breakages that refuse a request on their own ------------------------------------------------------------------

interface Draft {
  method: string;
  path: string;
  headers: [string, string][];
  body?: Buffer;
  /** Set by a breakage that writes the framing itself. */
  raw?: Buffer;
  alone?: boolean;
  endAfter?: boolean;
  what: string;
}

const headerBlock = (headers: [string, string][]) => headers.map(([k, v]) => `${k}: ${v}\r\n`).join('');

function render(d: Draft): Buffer {
  if (d.raw) return d.raw;
  const headers = [...d.headers];
  if (d.body && !headers.some(([k]) => /^(content-length|transfer-encoding)$/i.test(k)))
    headers.push(['Content-Length', String(d.body.length)]);
  const head = Buffer.from(`${d.method} ${d.path} HTTP/1.1\r\n${headerBlock(headers)}\r\n`, 'latin1');
  return d.body ? Buffer.concat([head, d.body]) : head;
}

/** Letters that fold to an ASCII one in some case mapping, and the ASCII letters they stand in for. */
const LOOKALIKES: [RegExp, string][] = [
  [/k/i, '\u212A'], // Kelvin sign: toLowerCase() gives k
  [/s/i, '\u017F'], // long s: toUpperCase() gives S
  [/i/i, '\u0131'], // dotless i: toUpperCase() gives I
  [/I/, '\u0130'], // dotted capital I: toLowerCase() gives i and a combining dot
];

type Breakage = (d: Draft, r: Random) => Draft;

const withBody = (d: Draft): Buffer => d.body ?? Buffer.from('{}');
const noAuth = (d: Draft) => d.headers.filter(([k]) => !/^(authorization|x-tenant)$/i.test(k));

const BREAKAGES: Record<string, Breakage> = {
  'no token': (d) => ({ ...d, headers: noAuth(d) }),
  'a wrong token': (d) => ({ ...d, headers: [...noAuth(d), ['Authorization', 'Bearer nope'], ['X-Tenant', 'DEMO']] }),
  'another tenant': (d, r) => ({
    ...d,
    headers: [...d.headers.filter(([k]) => !/^x-tenant$/i.test(k)), ['X-Tenant', r.pick(['OTHER', '', 'demo'])]],
  }),
  'a method in lower case': (d) => ({ ...d, method: d.method.toLowerCase() }),
  'a method HTTP does not know': (d, r) => ({ ...d, method: r.pick(['FOO', 'P0ST', 'GETT', 'BREW']) }),
  'a method no route takes': (d) => ({ ...d, method: 'PATCH' }),
  'a folded header': (d) => ({ ...d, headers: [...d.headers, ['X-Folded', 'a\r\n  b']] }),
  'a control character in a header': (d, r) => ({
    ...d,
    headers: [
      ...d.headers,
      r.pick<[string, string]>([
        ['X-A\x01', 'a'],
        ['X-B', 'a\x00b'],
        ['X C', 'd'],
      ]),
    ],
  }),
  // (The request line is written as Latin-1: this is the UTF-8 of é, byte for byte.)
  'raw bytes that are not ASCII in the path': (d) => ({
    ...d,
    path: `${d.path.split('?')[0]}${Buffer.from('é').toString('latin1')}`,
  }),
  'a letter that only folds to ASCII': (d, r) => {
    const [path, query] = d.path.split('?');
    const options = LOOKALIKES.filter(([re]) => re.test(path));
    if (!options.length) return { ...d, path: `${path}${encodeURIComponent('\u212A')}${query ? `?${query}` : ''}` };
    const [re, lookalike] = r.pick(options);
    const encoded = r.chance(0.8) ? encodeURIComponent(lookalike) : Buffer.from(lookalike).toString('latin1');
    return { ...d, path: path.replace(re, encoded) + (query ? `?${query}` : '') };
  },
  'no Host': (d) => ({ ...d, headers: d.headers.filter(([k]) => !/^host$/i.test(k)) }),
  'an Expect it cannot meet': (d, r) => ({
    ...d,
    headers: [...d.headers, ['Expect', r.pick(['200-ok', 'something', '100-continue, x'])]],
  }),
  'a body in a content coding': (d, r) => ({
    ...d,
    headers: [...d.headers, ['Content-Encoding', r.pick(['gzip', 'br', 'deflate', 'x-mine', 'gzip, identity'])]],
    body: r.chance(0.5) ? Buffer.concat([Buffer.from('/* compressed */'), withBody(d)]) : withBody(d),
  }),
  'a content type it does not read': (d, r) => ({
    ...d,
    headers: [
      ...d.headers.filter(([k]) => !/^content-type$/i.test(k)),
      ['Content-Type', r.pick(['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'image/png'])],
    ],
    body: withBody(d),
  }),
  'a body that is not JSON': (d, r) => ({
    ...d,
    headers: [...d.headers.filter(([k]) => !/^content-type$/i.test(k)), ['Content-Type', 'application/json']],
    body: r.pick([
      Buffer.from('{"a":'),
      Buffer.from('/* comment */ {}'),
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
      Buffer.from('NaN'),
      Buffer.concat([withBody(d).subarray(0, Math.max(1, withBody(d).length - 1))]),
    ]),
  }),
  'a path it cannot read': (d, r) => ({
    ...d,
    path: `${d.path.split('?')[0]}/${r.pick(['%', '%zz', '%ff', '%c0%af', 'a'.repeat(1001)])}`,
  }),
  // One header of 17 KB, or 400 of 50 bytes: either way more than the 16 KiB the parser reads.
  'headers over the limit': (d, r) => {
    const [count, size] = r.pick([
      [1, 17_000],
      [400, 50],
    ]);
    const pad = Array.from({ length: count }, (_, i): [string, string] => [`X-Pad-${i}`, 'p'.repeat(size)]);
    return { ...d, headers: [...d.headers, ...pad] };
  },
  'a path of thousands of segments': (d) => ({ ...d, path: `${d.path.split('?')[0]}${'/seg12'.repeat(3000)}` }),
  'thousands of query parameters': (d) => ({
    ...d,
    path: `${d.path.split('?')[0]}?${Array.from({ length: 3000 }, (_, i) => `p${i}=1`).join('&')}`,
  }),
  'two Content-Lengths': (d) => {
    const body = withBody(d);
    return {
      ...d,
      headers: [...d.headers, ['Content-Length', String(body.length)], ['Content-Length', String(body.length + 1)]],
      body,
    };
  },
  'Content-Length with chunked': (d) => {
    const body = withBody(d);
    return {
      ...d,
      headers: [...d.headers, ['Content-Length', String(body.length)], ['Transfer-Encoding', 'chunked']],
      body: Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]),
    };
  },
  'a chunk without its size': (d) => {
    const body = withBody(d);
    return {
      ...d,
      headers: [...d.headers, ['Transfer-Encoding', 'chunked']],
      body: Buffer.concat([Buffer.from('zz\r\n'), body, Buffer.from('\r\n0\r\n\r\n')]),
    };
  },
  // The body goes on past its Content-Length: the rest reads as a request of its own, which the parser refuses.
  'a body longer than its Content-Length': (d) => {
    const body = Buffer.concat([Buffer.from('/* note */'), withBody(d)]);
    return { ...d, headers: [...d.headers, ['Content-Length', '10']], body, alone: true };
  },
  // The client stops in the middle of the body and closes its side.
  'a body cut short': (d) => {
    const body = withBody(d);
    return {
      ...d,
      headers: [...d.headers, ['Content-Length', String(body.length + 10)]],
      body,
      alone: true,
      endAfter: true,
    };
  },
  CONNECT: (d) => ({ ...d, method: 'CONNECT', path: '127.0.0.1:1', alone: true }),
};

/** Breakages that leave a request well-formed (it is still refused only when its base is broken). */
const HARMLESS: Record<string, Breakage> = {
  chunked: (d) => {
    if (!d.body) return d;
    const cut = Math.floor(d.body.length / 2);
    const chunk = (b: Buffer) =>
      b.length ? [Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')] : [];
    return {
      ...d,
      headers: [...d.headers, ['Transfer-Encoding', 'chunked']],
      body: Buffer.concat([
        ...chunk(d.body.subarray(0, cut)),
        ...chunk(d.body.subarray(cut)),
        Buffer.from('0\r\n\r\n'),
      ]),
    };
  },
  'Expect: 100-continue': (d) => ({ ...d, headers: [...d.headers, ['Expect', '100-continue']] }),
  'header names in odd case': (d) => ({
    ...d,
    headers: d.headers.map(([k, v]) => [k.toUpperCase(), v]),
  }),
  'HTTP/1.0': (d) => ({
    ...d,
    raw: Buffer.from(
      render(d)
        .toString('latin1')
        .replace(/ HTTP\/1\.1\r\n/, ' HTTP/1.0\r\n'),
      'latin1',
    ),
    alone: true,
  }),
};

export const BREAKAGE_NAMES = Object.keys(BREAKAGES);

/** `count` requests of the storm, the same for the same seed. */
export function stormRequests(seed: number, count: number, c: Credentials, host: string): StormRequest[] {
  const r = seeded(seed);
  const out: StormRequest[] = [];
  for (let n = 0; out.length < count; n++) {
    const family = r.next();
    const base = family < 0.45 ? datasetBase(r, n) : family < 0.55 ? tokenBase(r, c) : adminBase(r, n);
    const headers: [string, string][] = [['Host', host]];
    if (!base.open) headers.push(['Authorization', `Bearer ${c.token}`]);
    headers.push(['X-Tenant', c.tenant]);
    if (base.body) headers.push(['Content-Type', base.type ?? 'application/json']);
    let draft: Draft = { method: base.method, path: base.path, headers, body: base.body, what: base.what };
    let breakage = '';
    if (base.takes || r.chance(0.55)) {
      const names = BREAKAGE_NAMES.filter((b) => !(base.open && /token|tenant/.test(b)));
      breakage = r.pick(names);
      draft = BREAKAGES[breakage](draft, r);
    } else if (r.chance(0.3)) {
      const name = r.pick(Object.keys(HARMLESS));
      draft = HARMLESS[name](draft, r);
      breakage = name;
    }
    out.push({
      what: `${base.method} ${base.path.slice(0, 80)} (${draft.what}${breakage ? `; ${breakage}` : ''})`,
      bytes: render(draft),
      alone: draft.alone,
      endAfter: draft.endAfter,
      path: draft.path.split('?')[0],
    });
  }
  return out;
}
