import { tableFromIPC } from 'apache-arrow';
import { ARROW_STREAM } from '../engine/server/arrow.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeRun, type Proposal } from '../engine/service/transfers.js';
import { DATASETS, getDataset } from '../engine/model/datasets.js';
import { item, location, purchaseOrder, sale, salesLine, sku } from './fixtures.js';
import { testServer, type TestServer } from './api-helpers.js';
import { buildServer } from '../engine/server/app.js';
import { Workbench } from '../engine/service/workbench.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tokenRequestCurl } from '../engine/server/auth.js';

const CREDENTIALS = { tenant: 'DEMO', clientId: 'workbench', clientSecret: 's3cret-value' };

let t: TestServer;
beforeAll(async () => {
  t = await testServer();
});
afterAll(async () => t.close());

const problemType = (h: Headers) => h.get('content-type') ?? '';

describe('POST /Token', () => {
  it('issues a bearer token for form or JSON client credentials', async () => {
    const form = await fetch(`${t.url}/Token`, {
      method: 'POST',
      headers: { 'x-tenant': 'DEMO', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=workbench&client_secret=s3cret-value',
    });
    expect(form.status).toBe(200);
    const body = await form.json();
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    // A token is never cached on the way (RFC 6749 §5.1).
    expect(form.headers.get('cache-control')).toBe('no-store');
    expect(form.headers.get('pragma')).toBe('no-cache');
    const json = await fetch(`${t.url}/token`, {
      method: 'POST',
      headers: { 'x-tenant': 'DEMO', 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'workbench', client_secret: 's3cret-value' }),
    });
    expect(json.status).toBe(200);
  });

  it('prints a token command that runs as pasted into a shell, whatever the tenant and secret hold', async () => {
    const odd = await testServer({ tenant: "O'Neil & Co", clientSecret: `a+b&c d'e"f$HOME` });
    try {
      const curl = tokenRequestCurl(odd.url, odd.server.info);
      const { stdout } = await promisify(execFile)('bash', ['-c', curl], { encoding: 'utf8' });
      expect(JSON.parse(stdout)).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String) });
    } finally {
      await odd.close();
    }
  });

  it('refuses wrong credentials, tenant or grant', async () => {
    const post = (tenant: string | undefined, body: Record<string, string>) =>
      fetch(`${t.url}/Token`, {
        method: 'POST',
        headers: { ...(tenant ? { 'x-tenant': tenant } : {}), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const good = { grant_type: 'client_credentials', client_id: 'workbench', client_secret: 's3cret-value' };
    const wrongSecret = await post('DEMO', { ...good, client_secret: 'nope' });
    expect(wrongSecret.status).toBe(401);
    expect(problemType(wrongSecret.headers)).toMatch(/application\/problem\+json/);
    expect(await wrongSecret.json()).toMatchObject({ status: 401, error: 'invalid_client' });
    expect(wrongSecret.headers.get('cache-control')).toBe('no-store');
    expect((await post('OTHER', good)).status).toBe(401);
    expect((await post(undefined, good)).status).toBe(401);
    const grant = await post('DEMO', { ...good, grant_type: 'password' });
    expect(grant.status).toBe(400);
    expect(await grant.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });
});

describe('authentication', () => {
  it('answers 401 with a problem body for a missing, invalid or other-tenant token', async () => {
    const body = JSON.stringify({ brands: [] });
    const missing = await fetch(`${t.url}/Brands`, {
      method: 'POST',
      headers: { 'x-tenant': 'DEMO', 'content-type': 'application/json' },
      body,
    });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({
      status: 401,
      detail: expect.stringMatching(/Authorization header is missing/),
    });
    // The challenge of RFC 6750 §3: a bare one when no token came, error="invalid_token" for one that is no good.
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="replenishment-workbench"');
    const madeUp = await t.call('POST', '/Brands', { brands: [] }, { authorization: 'Bearer made-up' });
    expect(madeUp.status).toBe(401);
    expect(madeUp.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="replenishment-workbench", error="invalid_token", error_description="the token is not valid/,
    );
    expect((await t.call('POST', '/Brands', { brands: [] }, { authorization: 'Basic abc' })).status).toBe(401);
    const other = await t.call('POST', '/Brands', { brands: [] }, { 'x-tenant': 'OTHER' });
    expect(other.status).toBe(401);
    expect(other.json.detail).toMatch(/another tenant/);
    // A detail holding quotes stays one quoted string in the header.
    expect(other.headers.get('www-authenticate')).toMatch(/error_description="[^"]*another tenant than 'OTHER'"$/);
    // A good token without its tenant: the call is incomplete, the token still good (no invalid_token to make a
    // client library throw it away), and the answer names the header.
    const noTenant = await t.call('GET', '/Recommendations/transfers', undefined, { 'x-tenant': '' });
    expect(noTenant.status).toBe(400);
    expect(noTenant.json).toMatchObject({
      error: 'invalid_request',
      detail: 'the X-Tenant header is required on every call',
    });
    expect(noTenant.headers.get('www-authenticate')).toBe(
      'Bearer realm="replenishment-workbench", error="invalid_request", ' +
        'error_description="the X-Tenant header is required on every call"',
    );
    expect((await t.call('GET', '/Recommendations/transfers')).status).toBe(200);
  });

  it('expires tokens', async () => {
    // The workbench's clock, moved by the test: a token's life is told by it, not by how long the test takes.
    let now = Date.parse('2025-03-01T09:00:00Z') * 1000;
    const dir = mkdtempSync(join(tmpdir(), 'wb-token-'));
    const wb = await Workbench.open(dir, { clock: () => now });
    const app = await buildServer({ workbench: wb, ...CREDENTIALS, tokenLifetimeSeconds: 60 });
    try {
      const issued = await app.inject({
        method: 'POST',
        url: '/Token',
        headers: { 'x-tenant': CREDENTIALS.tenant },
        payload: {
          grant_type: 'client_credentials',
          client_id: CREDENTIALS.clientId,
          client_secret: CREDENTIALS.clientSecret,
        },
      });
      expect(issued.json()).toMatchObject({ token_type: 'Bearer', expires_in: 60 });
      const post = () =>
        app.inject({
          method: 'POST',
          url: '/Brands',
          headers: { authorization: `Bearer ${issued.json().access_token}`, 'x-tenant': CREDENTIALS.tenant },
          payload: { brands: [] },
        });
      now += 59_000_000;
      expect((await post()).statusCode).toBe(200);
      now += 2_000_000;
      const expired = await post();
      expect(expired.statusCode).toBe(401);
      expect(expired.json().detail).toMatch(/expired/);
    } finally {
      await app.close();
      await wb.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('binds a token to the tenant of its server: two workspaces served at once are isolated', async () => {
    const other = await testServer({ tenant: 'ACME', clientSecret: 's3cret-value' });
    try {
      const acmeToken = await other.token();
      const cross = await t.call('GET', '/Recommendations/transfers', undefined, {
        authorization: `Bearer ${acmeToken}`,
        'x-tenant': 'ACME',
      });
      expect(cross.status).toBe(401);
      expect((await other.call('POST', '/Brands', { brands: [{ brandId: 'ACME-ONLY', code: 'A' }] })).status).toBe(200);
      expect((await t.call('GET', '/_workbench/data/Brands/ACME-ONLY')).status).toBe(404);
    } finally {
      await other.close();
    }
  });
});

describe('upserts', () => {
  it('answers 200 with no body and stores the record', async () => {
    const r = await t.call('POST', '/Sales', { sales: [sale('S1')] });
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    expect((await t.call('GET', '/_workbench/data/Sales/S1')).json).toEqual(sale('S1'));
  });

  it('answers 400 listing every validation error, and applies nothing', async () => {
    const r = await t.call('POST', '/Sales', {
      sales: [sale('OK1'), sale('BAD', [salesLine('x', 'SKU', 1, { quantitySold: 'two' })], { salesDateTime: 'soon' })],
    });
    expect(r.status).toBe(400);
    expect(problemType(r.headers)).toMatch(/application\/problem\+json/);
    expect(r.json).toMatchObject({
      status: 400,
      title: 'Bad request',
      errorCount: 2,
      requestId: r.headers.get('x-request-id'),
    });
    expect(r.json.errors).toEqual([
      { path: '/sales/1/salesDateTime', recordId: 'BAD', message: expect.stringMatching(/ISO 8601/) },
      { path: '/sales/1/salesLines/0/quantitySold', recordId: 'BAD', message: 'must be a number, got "two"' },
    ]);
    expect((await t.call('GET', '/_workbench/data/Sales/OK1')).status).toBe(404);
  });

  it('matches paths and query names case-insensitively, with /v1 as an alias', async () => {
    await t.call('POST', '/locations', { locations: [location('CI-A'), location('CI-B')] });
    const full = await t.call('POST', '/v1/LOCATIONS/?FULLLOAD=TRUE', {
      locations: [location('CI-B'), location('CI-C')],
    });
    expect(full.status).toBe(200);
    const page = await t.call('GET', '/_workbench/data/Locations?limit=100');
    expect(page.json.records.map((l: { locationId: string }) => l.locationId)).toEqual(['CI-B', 'CI-C']);
  });

  it('runs a split full load over several calls', async () => {
    await t.call('POST', '/PurchaseOrders', { purchaseOrders: [purchaseOrder('A'), purchaseOrder('B')] });
    expect(
      (
        await t.call('POST', '/PurchaseOrders?fullLoad=true&moreRecordsAvailable=true', {
          purchaseOrders: [purchaseOrder('B')],
        })
      ).status,
    ).toBe(200);
    expect((await t.call('GET', '/_workbench/data/PurchaseOrders/A')).status).toBe(200);
    expect(
      (
        await t.call('POST', '/PurchaseOrders?fullLoad=true&moreRecordsAvailable=false', {
          purchaseOrders: [purchaseOrder('C')],
        })
      ).status,
    ).toBe(200);
    expect((await t.call('GET', '/_workbench/data/PurchaseOrders/A')).status).toBe(404);
    expect((await t.call('GET', '/_workbench/data/PurchaseOrders/B')).status).toBe(200);
    expect((await t.call('GET', '/_workbench/data/PurchaseOrders/C')).status).toBe(200);
  });

  it('keeps a split full load open past a refused call, says so, and drops it on request', async () => {
    await t.call('POST', '/Locations', { locations: [location('OLD')] });
    await t.call('POST', '/Locations?fullLoad=true&moreRecordsAvailable=true', { locations: [location('A')] });
    const refused = await t.call('POST', '/Locations?fullLoad=true', { locations: [{ locationId: 'B' }] });
    expect(refused.status).toBe(400);
    expect(refused.json.warnings).toEqual([
      {
        path: '',
        message: expect.stringMatching(
          new RegExp(
            '^the split full load of Locations started \\S+ stays open \\(1 call, 1 records\\): ' +
              'the next fullLoad=true call continues it, .* DELETE /_workbench/full-loads/Locations$',
          ),
        ),
      },
    ]);
    // A load meant as one of its own drops the open one first; then A, staged before, is not applied.
    const dropped = await t.call('DELETE', '/_workbench/full-loads/locations');
    expect(dropped.status).toBe(200);
    expect(dropped.json).toMatchObject({ dataset: 'Locations', calls: 1, records: 1 });
    expect((await t.call('DELETE', '/_workbench/full-loads/Locations')).status).toBe(404);
    expect((await t.call('DELETE', '/_workbench/full-loads/Nothing')).status).toBe(404);
    expect(
      (await t.call('POST', '/Locations?fullLoad=true', { locations: [location('B'), location('C')] })).status,
    ).toBe(200);
    const page = await t.call('GET', '/_workbench/data/Locations?limit=100');
    expect(page.json.records.map((l: { locationId: string }) => l.locationId)).toEqual(['B', 'C']);
  });

  it('sets stock not sent in a stock full load to 0', async () => {
    await t.call('POST', '/Stock', {
      stock: [
        { locationId: 'L1', skuId: 'A', quantity: 3 },
        { locationId: 'L1', skuId: 'B', quantity: 4 },
      ],
    });
    expect(
      (await t.call('POST', '/Stock?fullLoad=true', { stock: [{ locationId: 'L1', skuId: 'A', quantity: 2 }] })).status,
    ).toBe(200);
    expect((await t.call('GET', '/_workbench/data/Stock/L1/A')).json).toEqual({
      locationId: 'L1',
      skuId: 'A',
      quantity: 2,
    });
    expect((await t.call('GET', '/_workbench/data/Stock/L1/B')).json).toEqual({
      locationId: 'L1',
      skuId: 'B',
      quantity: 0,
    });
  });

  it('soft-deletes with DELETE and refuses a malformed flag', async () => {
    await t.call('POST', '/Colors', { colors: [{ colorId: 'RED', code: 'R' }] });
    expect((await t.call('DELETE', '/Colors', { colors: [{ colorId: 'RED' }] })).status).toBe(200);
    expect((await t.call('GET', '/_workbench/data/Colors/RED')).status).toBe(404);
    const flag = await t.call('POST', '/Locations?fullLoad=yes', { locations: [] });
    expect(flag.status).toBe(400);
    expect(flag.json.detail).toBe('query parameter fullLoad must be true or false, got "yes"');
  });
});

describe('HTTP errors', () => {
  it('answers 404 for unknown paths, with a problem body', async () => {
    const r = await t.call('GET', '/Nothing/here');
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ status: 404, detail: expect.stringMatching(/no endpoint GET \/Nothing\/here/) });
    expect((await t.call('POST', '/Stock/extra', {})).status).toBe(404);
  });

  it('answers 400 for malformed JSON, invalid UTF-8 and bodies of the wrong shape', async () => {
    const malformed = await t.call('POST', '/Sales', '{"sales": [', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.detail).toMatch(/not valid JSON/);
    const bytes = new Uint8Array([0x7b, 0x22, 0x73, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    const utf8 = await t.call('POST', '/Sales', bytes, { 'content-type': 'application/json' });
    expect(utf8.status).toBe(400);
    expect(utf8.json.detail).toMatch(/UTF-8/);
    const shape = await t.call('POST', '/Sales', [1, 2]);
    expect(shape.status).toBe(400);
    expect(shape.json.errors[0].message).toMatch(/JSON object holding an array "sales"/);
  });

  it('answers 415 for a body that is not JSON, a form included (only a token request takes one)', async () => {
    const r = await t.call('POST', '/Sales', 'sales=1', { 'content-type': 'text/plain' });
    expect(r.status).toBe(415);
    expect(r.json.status).toBe(415);
    const form = await t.call('POST', '/Brands', 'brands=1', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(form.json).toMatchObject({
      status: 415,
      detail: 'send the body as application/json (got application/x-www-form-urlencoded)',
    });
  });

  it('stops checking a batch at 100,000 errors and says the count is a floor', async () => {
    const broken = (n: number) => ({ sales: Array.from({ length: n }, () => ({})) });
    // Five required fields missing in each record.
    const below = await t.call('POST', '/Sales', broken(19_999));
    expect(below.json).toMatchObject({ status: 400, errorCount: 99_995 });
    expect(below.json).not.toHaveProperty('errorCountIsAtLeast');
    const above = await t.call('POST', '/Sales', broken(1_000_000));
    expect(above.json).toMatchObject({ status: 400, errorCount: 100_000, errorCountIsAtLeast: true });
    expect(above.json.errors).toHaveLength(1000);
    expect(above.json.detail).toMatch(
      /^Sales: batch rejected, nothing applied: 100000 or more errors \(checking stopped there\)/,
    );
  });

  it('answers 413 above the body limit of the endpoint', async () => {
    const limit = getDataset('ExcludedSkus').bodyLimit;
    const big = JSON.stringify({ excludedSkus: [{ skuId: 'x'.repeat(70) }] }).replace('x', 'x'.repeat(limit));
    const r = await t.call('POST', '/ExcludedSkus', big, { 'content-type': 'application/json' });
    expect(r.status).toBe(413);
    expect(r.json.detail).toMatch(/split it over several calls/);
    expect((await t.call('POST', '/ExcludedSkus', { excludedSkus: [{ skuId: 'fine' }] })).status).toBe(200);
  });

  it('describes each style from the data sent, and pages the descriptions and their tags', async () => {
    await t.call('POST', '/Brands', { brands: [{ brandId: 'PD-BR', code: 'PDB', description: 'Acme' }] });
    await t.call('POST', '/Colors', { colors: [{ colorId: 'PD-RED', code: 'R', description: 'Red' }] });
    await t.call('POST', '/Sizes', { sizes: [{ sizeId: 'PD-S', code: 'S' }] });
    await t.call('POST', '/MerchandiseCategories', {
      merchandiseCategories: [{ merchandiseCategoryId: 'PD-MC', code: 'TEES', description: 'T-shirts' }],
    });
    const skus = (style: string, color: string) =>
      ['PD-S', 'PD-M'].map((size) => ({ ...sku(`${style}-${size}`, style), colorId: color, sizeId: size }));
    await t.call('POST', '/Items', {
      items: [
        item('PD-1', [], {
          description: 'Slim tee',
          brandId: 'PD-BR',
          merchandiseCategoryId: 'PD-MC',
          attributes: [{ attributeId: 'PD-1-fit', key: 'fit', value: 'slim' }],
          styleAttributes: [{ styleAttributeId: 'PD-1-RED-seg', key: 'segment', value: 'young', styleId: 'PD-1-RED' }],
          skus: [...skus('PD-1-RED', 'PD-RED'), ...skus('PD-1-BLU', 'PD-BLU')],
        }),
      ],
    });
    const all = await t.call('GET', '/Recommendations/productDescriptions?Limit=1000');
    expect(all.status).toBe(200);
    const mine = all.json.productDescriptions.filter((d: { itemId: string }) => d.itemId === 'PD-1');
    expect(mine).toEqual([
      {
        itemId: 'PD-1',
        styleId: 'PD-1-RED',
        title: 'Slim tee, Red',
        // A master record without a description is named by its code, one never sent by its id.
        description: 'Slim tee in Red, by Acme. T-shirts. Sizes S, PD-M. Fit: slim. Segment: young.',
        tags: [
          { key: 'brand', value: 'Acme' },
          { key: 'category', value: 'T-shirts' },
          { key: 'color', value: 'Red' },
          { key: 'size', value: 'S' },
          { key: 'size', value: 'PD-M' },
          { key: 'fit', value: 'slim' },
          { key: 'segment', value: 'young' },
        ],
      },
      expect.objectContaining({ styleId: 'PD-1-BLU', title: 'Slim tee, PD-BLU' }),
    ]);
    // The same list a page at a time.
    const n = all.json.productDescriptions.length;
    const second = await t.call('GET', `/Recommendations/productDescriptions?Offset=${n - 1}&Limit=1`);
    expect(second.json).toEqual({
      productDescriptions: [all.json.productDescriptions[n - 1]],
      offset: n - 1,
      limit: 1,
      moreRecordsAvailable: false,
    });
    expect((await t.call('GET', '/Recommendations/productDescriptions?Limit=1')).json.moreRecordsAvailable).toBe(n > 1);
    const tags = await t.call('GET', '/Recommendations/productDescriptions/tags?Limit=1000');
    expect(tags.json.tags).toContainEqual({ key: 'brand', value: 'Acme', styles: 2 });
    expect(tags.json.tags).toContainEqual({ key: 'segment', value: 'young', styles: 1 });
    expect((await t.call('GET', '/Recommendations/productDescriptions?Limit=0')).status).toBe(400);
  });

  it('answers the same descriptions and tags byte for byte on unchanged data; its pages make the list', async () => {
    await t.call('POST', '/Colors', {
      colors: ['PDD-GRN', 'PDD-YEL'].map((colorId, i) => ({
        colorId,
        code: colorId,
        description: ['Green', 'Yellow'][i],
      })),
    });
    await t.call('POST', '/Items', {
      items: ['PDD-5', 'PDD-3', 'PDD-4', 'PDD-1', 'PDD-2'].map((itemId, i) =>
        item(itemId, [], {
          attributes: [{ attributeId: `${itemId}-fit`, key: 'fit', value: ['slim', 'loose'][i % 2] }],
          styleAttributes: [],
          skus: ['PDD-GRN', 'PDD-YEL'].map((colorId) =>
            sku(`${itemId}-${colorId}`, `${itemId}-${colorId}`, { colorId }),
          ),
        }),
      ),
    });
    for (const [path, key, size] of [
      ['/Recommendations/productDescriptions', 'productDescriptions', 3],
      ['/Recommendations/productDescriptions/tags', 'tags', 2],
    ] as const) {
      const first = await t.call('GET', `${path}?Limit=10000`);
      const again = await t.call('GET', `${path}?Limit=10000`);
      expect(first.status).toBe(200);
      expect(again.text).toBe(first.text);
      const all = first.json[key] as unknown[];
      expect(all.length, path).toBeGreaterThan(2 * size);
      // Offset and Limit walk the same list: the pages put together are the whole of it, in its order.
      const walked: unknown[] = [];
      for (let offset = 0; ; offset += size) {
        const page = await t.call('GET', `${path}?Offset=${offset}&Limit=${size}`);
        expect(page.json).toMatchObject({ offset, limit: size });
        walked.push(...page.json[key]);
        if (!page.json.moreRecordsAvailable) break;
        expect(page.json[key]).toHaveLength(size);
      }
      expect(walked).toEqual(all);
    }
    const styles = (await t.call('GET', '/Recommendations/productDescriptions?Limit=10000')).json.productDescriptions
      .filter((d: { itemId: string }) => d.itemId.startsWith('PDD-'))
      .map((d: { styleId: string }) => d.styleId);
    expect(styles).toEqual(
      ['PDD-1', 'PDD-2', 'PDD-3', 'PDD-4', 'PDD-5'].flatMap((i) => [`${i}-PDD-GRN`, `${i}-PDD-YEL`]),
    );
  });

  it('answers 500 with a request id and no stack, and keeps serving', async () => {
    const broken = await testServer();
    try {
      await broken.call('POST', '/Brands', { brands: [] });
      // Pull the database out from under the service.
      await broken.server.workbench.workspace.conn.run('DROP TABLE brands');
      const r = await broken.call('POST', '/Brands', { brands: [{ brandId: 'B', code: 'B' }] });
      expect(r.status).toBe(500);
      expect(r.json).toMatchObject({ status: 500, requestId: r.headers.get('x-request-id') });
      expect(r.text).not.toMatch(/at .*\.ts:\d+|Catalog Error|brands/);
      expect((await broken.call('POST', '/Colors', { colors: [{ colorId: 'C', code: 'C' }] })).status).toBe(200);
    } finally {
      await broken.close();
    }
  });
});

describe('GET /Recommendations/transfers', () => {
  it('pages approved transfers with GLNs, FromConfirmedDateTime and the limit bounds', async () => {
    const s = await testServer();
    try {
      await s.call('POST', '/Locations', { locations: [location('WH', { gln: '8712345678906' }), location('S1')] });
      const proposals: Proposal[] = Array.from({ length: 25 }, (_, i) => ({
        referenceId: `R${String(i).padStart(3, '0')}`,
        transferType: 'Replenishment',
        fromLocationId: 'WH',
        toLocationId: 'S1',
        skuId: `SKU${i}`,
        quantity: i + 1,
        reason: 'below target',
      }));
      const ws = s.server.workbench.workspace;
      const now = Date.now() * 1000;
      await ws.exclusive(() => ws.transaction(() => storeRun(ws, proposals, now, now, now)));
      expect((await s.call('GET', '/Recommendations/transfers')).json).toEqual({
        transfers: [],
        offset: 0,
        limit: 1000,
        moreRecordsAvailable: false,
      });

      const first = await s.call('POST', '/_workbench/transfers/approve', {
        referenceIds: proposals.slice(0, 10).map((p) => p.referenceId),
        description: 'week 12',
        plannedDispatchDate: '2024-03-20',
      });
      expect(first.json).toMatchObject({ approved: 10, approvalBatchId: expect.any(String) });
      await new Promise((r) => setTimeout(r, 5));
      const cutoff = new Date().toISOString();
      await new Promise((r) => setTimeout(r, 5));
      const second = await s.call('POST', '/_workbench/transfers/approve', {});
      expect(second.json.approved).toBe(15);

      // The transfers list as columns when asked: the same rows as the JSON page, the total in a header.
      const asJson = await s.call('GET', '/_workbench/transfers?offset=5&limit=10');
      const res = await fetch(`${s.url}/_workbench/transfers?offset=5&limit=10`, {
        headers: { authorization: `Bearer ${await s.token()}`, 'x-tenant': s.server.info.tenant, accept: ARROW_STREAM },
      });
      expect(res.headers.get('content-type')).toBe(ARROW_STREAM);
      expect(res.headers.get('x-total-count')).toBe('25');
      const table = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
      const rows = table
        .toArray()
        .map((r) => Object.fromEntries(Object.entries(r.toJSON()).filter(([, v]) => v !== null)));
      expect(rows).toEqual(asJson.json.proposals);

      const page1 = await s.call('GET', '/Recommendations/transfers?Offset=0&Limit=10');
      expect(page1.json.transfers).toHaveLength(10);
      expect(page1.json).toMatchObject({ offset: 0, limit: 10, moreRecordsAvailable: true });
      expect(page1.json.transfers[0]).toEqual({
        fromLocationId: 'WH',
        toLocationId: 'S1',
        skuId: 'SKU0',
        quantity: 1,
        referenceId: 'R000',
        approvalBatchId: first.json.approvalBatchId,
        fromLocationGLN: '8712345678906',
        toLocationGLN: null,
        transferType: 'Replenishment',
        approvalBatchDescription: 'week 12',
        plannedDispatchDate: '2024-03-20',
      });
      const page3 = await s.call('GET', '/recommendations/transfers?offset=20&limit=10');
      expect(page3.json.transfers.map((x: { referenceId: string }) => x.referenceId)).toEqual([
        'R020',
        'R021',
        'R022',
        'R023',
        'R024',
      ]);
      expect(page3.json.moreRecordsAvailable).toBe(false);
      const since = await s.call(
        'GET',
        `/Recommendations/transfers?FromConfirmedDateTime=${encodeURIComponent(cutoff)}`,
      );
      expect(since.json.transfers).toHaveLength(15);
      expect(
        since.json.transfers.every(
          (x: { approvalBatchId: string }) => x.approvalBatchId === second.json.approvalBatchId,
        ),
      ).toBe(true);

      expect((await s.call('GET', '/Recommendations/transfers?Limit=10001')).status).toBe(400);
      expect((await s.call('GET', '/Recommendations/transfers?Offset=-1')).status).toBe(400);
      expect((await s.call('GET', '/Recommendations/transfers?FromConfirmedDateTime=yesterday')).status).toBe(400);
      // An approval naming no open proposal is refused whole.
      const again = await s.call('POST', '/_workbench/transfers/approve', { referenceIds: ['R000', 'NOPE'] });
      expect(again.status).toBe(400);
      expect(again.json.errors.map((e: { path: string }) => e.path)).toEqual(['/referenceIds/0', '/referenceIds/1']);
      expect((await s.call('POST', '/_workbench/transfers/approve', { referenceIds: [] })).status).toBe(400);
      expect((await s.call('POST', '/_workbench/transfers/approve', { referenceIds: 'R001' })).status).toBe(400);
    } finally {
      await s.close();
    }
  });
});

describe('sessions, admin API and OpenAPI', () => {
  it('starts and stops batches; stopping runs the recommendations', async () => {
    const start = await t.call('POST', '/Batch/start');
    expect(start.json.batchId).toEqual(expect.any(String));
    const stop = await t.call('POST', '/Batch/stop', { batchId: start.json.batchId });
    expect(stop.json).toMatchObject({
      batchId: start.json.batchId,
      run: { runId: expect.any(String), proposals: expect.any(Number) },
    });
    const run = await t.call('POST', '/_workbench/recommendations/run', { asOf: '2024-03-01' });
    expect(run.json).toMatchObject({ runId: expect.any(String), asOf: '2024-03-01T00:00:00.000Z' });
    expect((await t.call('POST', '/_workbench/recommendations/run', { asOf: 'March' })).status).toBe(400);
    const bad = await t.call('POST', '/_workbench/recommendations/run', {
      settings: { defaults: { serviceLevel: 7 } },
    });
    expect(bad.status).toBe(400);
    // A pointer into the body, in words a user reads.
    expect(bad.json.errors).toEqual([{ path: '/settings/defaults/serviceLevel', message: 'must be at most 0.9999' }]);
  });

  it('keeps a request log with errors and warnings, and never a secret', async () => {
    await t.call('POST', '/Brands?unexpected=1', { brands: [{ brandId: 'LOG1', code: 'L', colour: 'red' }] });
    await t.call('POST', '/Brands', { brands: [{ brandId: 'LOG2' }] });
    const { entries } = (await t.call('GET', '/_workbench/log?limit=1000')).json;
    const ok = entries.find((e: { bodyExcerpt?: string }) => e.bodyExcerpt?.includes('LOG1'));
    expect(ok).toMatchObject({
      method: 'POST',
      path: '/Brands',
      status: 200,
      dataset: 'Brands',
      records: 1,
      warningCount: 2,
    });
    expect(ok.warnings.map((w: { message: string }) => w.message)).toEqual([
      'unknown query parameter "unexpected" ignored',
      'unknown field "colour" ignored',
    ]);
    const bad = entries.find((e: { bodyExcerpt?: string }) => e.bodyExcerpt?.includes('LOG2'));
    expect(bad).toMatchObject({
      status: 400,
      errorCount: 1,
      errors: [{ path: '/brands/0/code', recordId: 'LOG2', message: 'is required' }],
    });
    // It opens to its answer and tells the port it came in on.
    expect(bad.port).toBe(Number(new URL(t.url).port));
    expect(JSON.parse(bad.responseExcerpt)).toMatchObject({
      status: 400,
      errors: [{ path: '/brands/0/code', recordId: 'LOG2', message: 'is required' }],
    });
    // The spec's 200 carries no body: nothing to keep.
    expect(ok.responseExcerpt).toBeUndefined();
    // A refusal without a list of errors keeps its reason: a missing token, a body that is not JSON, no endpoint.
    await fetch(`${t.url}/Brands`, { method: 'POST', headers: { 'x-tenant': 'DEMO' } });
    await t.call('POST', '/Brands', '{"brands": [', { 'content-type': 'application/json' });
    await t.call('GET', '/Nowhere');
    const refused = (await t.call('GET', '/_workbench/log?limit=3')).json.entries.slice(0, 3);
    expect(refused).toMatchObject([
      { status: 401, path: '/Brands', errorCount: 1, errors: [{ path: '', message: expect.stringMatching(/token/i) }] },
      { status: 400, errors: [{ path: '', message: expect.stringMatching(/^the body is not valid JSON/) }] },
      { status: 404, errors: [{ path: '', message: 'no endpoint GET /Nowhere; see GET /openapi.json' }] },
    ]);
    // A broken token request and a secret in a query string leave no secret behind either.
    await fetch(`${t.url}/Token`, {
      method: 'POST',
      headers: { 'x-tenant': 'DEMO', 'content-type': 'application/json' },
      body: '{"grant_type":"client_credentials","client_secret":"s3cret-value",',
    });
    await fetch(`${t.url}/v1/TOKEN/?client_secret=s3cret-value`);
    await t.call('GET', '/Recommendations/transfers?Limit=5&api_key=s3cret-value');
    const all = JSON.stringify((await t.call('GET', '/_workbench/log?limit=1000')).json.entries);
    expect(all).toContain('api_key=***');
    expect(all).not.toContain('s3cret-value');
    // The reason of a 401 names the header's form ("Bearer <token>"), never a token.
    expect(all).not.toMatch(/Bearer (?!<token>)/);
    expect(entries.some((e: { path: string }) => e.path === '/Token')).toBe(true);
  });

  it('lints the feed over HTTP', async () => {
    await t.call('POST', '/Sales', {
      sales: [
        sale('LINT1', [salesLine('1', 'GHOST', 1, { costPrice: -2 })], { currencyCode: 'EUR', locationId: 'NOWHERE' }),
      ],
    });
    const report = (await t.call('GET', '/_workbench/lint')).json;
    const rule = (id: string) => report.findings.find((f: { rule: string }) => f.rule === id);
    expect(rule('unknown-sku').examples).toContainEqual({
      dataset: 'Sales',
      id: 'LINT1',
      detail: 'skuId "GHOST" was never sent in /Items',
      record: true,
    });
    expect(rule('unknown-location').examples).toContainEqual({
      dataset: 'Sales',
      id: 'LINT1',
      detail: 'locationId "NOWHERE" was never sent to /Locations',
      record: true,
    });
    expect(rule('currency-not-local').examples).toContainEqual({
      dataset: 'Sales',
      id: 'LINT1',
      detail: 'currencyCode "EUR"',
      record: true,
    });
    expect(rule('cost-price-negative').count).toBeGreaterThanOrEqual(1);
    expect(rule('bare-line-number-ids').examples).toContainEqual({
      dataset: 'Sales',
      id: 'LINT1',
      detail: 'salesLineId "1" is a bare line number',
      record: true,
    });
    expect(rule('unknown-fields').examples.map((e: { id: string }) => e.id)).toContain('colour');
  });

  it('serves an OpenAPI 3.1 document without auth', async () => {
    const res = await fetch(`${t.url}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.Problem).toBeDefined();
    // A tool importing the document gets the base URL it reached, and every reference names a schema it holds.
    expect(doc.servers).toEqual([{ url: t.url, description: 'This local API' }]);
    const refs = [...new Set(JSON.stringify(doc).match(/"\$ref":"[^"]+"/g))].map((r) => r.slice(8, -1));
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\/[A-Z]\w+$/);
      expect(doc.components.schemas[ref.split('/').at(-1)!], ref).toBeDefined();
    }
    for (const p of [
      '/Items',
      '/Sales',
      '/Stock',
      '/PurchaseOrders',
      '/Token',
      '/Recommendations/transfers',
      '/Images/urls',
      '/_workbench/lint',
    ]) {
      expect(doc.paths[p], p).toBeDefined();
    }
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/v1'))).toBe(false);
    // The headers a client library reads: the bearer challenge of a 401, and a token that is never cached.
    expect(doc.paths['/Sales'].post.responses['401'].headers['WWW-Authenticate']).toMatchObject({
      schema: { type: 'string' },
    });
    expect(Object.keys(doc.paths['/Token'].post.responses['200'].headers)).toEqual(['Cache-Control', 'Pragma']);
    const post = doc.paths['/Sales'].post;
    expect(post.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'X-Tenant', required: true }));
    expect(
      post.requestBody.content['application/json'].schema.properties.sales.items.properties.salesLines,
    ).toBeDefined();
    expect(post.responses['400'].content['application/problem+json']).toBeDefined();
    expect(doc.paths['/Locations'].post.parameters).toContainEqual(
      expect.objectContaining({ in: 'query', name: 'fullLoad' }),
    );
    // The full-load rules where a client reads the parameters, the split load left open by a refused call included.
    const queryDocs = (path: string) =>
      Object.fromEntries(
        doc.paths[path].post.parameters
          .filter((p: { in: string }) => p.in === 'query')
          .map((p: { name: string; description?: string }) => [p.name, p.description]),
      );
    const locations = queryDocs('/Locations');
    expect(locations.fullLoad).toMatch(/every record not sent is soft-deleted/);
    expect(locations.fullLoad).toMatch(/the next fullLoad=true call continues it, even one meant as a load of its own/);
    expect(locations.fullLoad).toMatch(
      /A refused call \(400\) leaves it open, so the same call sent again corrected continues it/,
    );
    expect(locations.fullLoad).toMatch(/DELETE \/_workbench\/full-loads\/Locations drops an open load/);
    expect(queryDocs('/Stock').fullLoad).toMatch(/every location\/SKU not sent is set to 0/);
    expect(locations.moreRecordsAvailable).toMatch(/true keeps the records aside.*false \(or absent\) completes/);
    expect(locations.moreRecordsAvailable).toMatch(/no call for 60 minutes is abandoned and deletes nothing.*409/);
    expect(queryDocs('/PurchaseOrders').moreRecordsAvailable).toBe(locations.moreRecordsAvailable);
    // Every data call may be refused for a body that is not JSON; a token request takes a form, and a GET no body.
    const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };
    for (const d of DATASETS) {
      expect(doc.paths[`/${d.name}`].post.responses['415'], d.name).toMatchObject({ content: problem });
      if (d.deletable)
        expect(doc.paths[`/${d.name}`].delete.responses['415'], d.name).toMatchObject({ content: problem });
    }
    expect(doc.paths['/Token'].post.responses['415']).toBeUndefined();
    expect(doc.paths['/Recommendations/transfers'].get.responses['415']).toBeUndefined();
    // The product descriptions and their tags, each a page like the transfers.
    for (const [path, key] of [
      ['/Recommendations/productDescriptions', 'productDescriptions'],
      ['/Recommendations/productDescriptions/tags', 'tags'],
    ]) {
      const get = doc.paths[path]?.get;
      expect(get, path).toBeDefined();
      expect(get.parameters.map((p: { name: string }) => p.name)).toEqual(
        expect.arrayContaining(['Offset', 'Limit', 'X-Tenant']),
      );
      const page = get.responses['200'].content['application/json'].schema;
      expect(page.required).toEqual([key, 'offset', 'limit', 'moreRecordsAvailable']);
      expect(page.properties).toMatchObject({
        [key]: { type: 'array', items: { type: 'object' } },
        offset: { type: 'integer' },
        limit: { type: 'integer' },
        moreRecordsAvailable: { type: 'boolean' },
      });
    }
    expect(
      Object.keys(
        doc.paths['/Recommendations/productDescriptions'].get.responses['200'].content['application/json'].schema
          .properties.productDescriptions.items.properties,
      ),
    ).toEqual(expect.arrayContaining(['itemId', 'styleId', 'title', 'description', 'tags']));
    expect(
      doc.paths['/Recommendations/productDescriptions/tags'].get.responses['200'].content['application/json'].schema
        .properties.tags.items.required,
    ).toEqual(['key', 'value', 'styles']);
  });

  it('loads a picked file into the endpoint its name or body tells, all or nothing', async () => {
    const byName = await t.call('POST', '/_workbench/load?file=Brands-0001.json', {
      brands: [{ brandId: 'BR-LOAD', code: 'LOAD' }],
    });
    expect(byName.status).toBe(200);
    expect(byName.json).toMatchObject({ dataset: 'Brands', received: 1, created: 1 });
    const byBody = await t.call('POST', '/_workbench/load?file=export.json', {
      colors: [{ colorId: 'CO-LOAD', code: 'LOAD' }],
    });
    expect(byBody.json).toMatchObject({ dataset: 'Colors', created: 1 });
    const bad = await t.call('POST', '/_workbench/load?file=Sales.json', {
      sales: [sale('S-LOAD-1'), sale('S-LOAD-2', undefined, { salesDateTime: 'yesterday' })],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toEqual([
      expect.objectContaining({ recordId: 'S-LOAD-2', path: '/sales/1/salesDateTime' }),
    ]);
    expect((await t.call('GET', '/_workbench/data/Sales/S-LOAD-1')).status).toBe(404);
    const unknown = await t.call('POST', '/_workbench/load?file=data.json', { things: [] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.detail).toMatch(/cannot tell which endpoint data\.json is for/);
    expect((await t.call('POST', '/_workbench/load', { brands: [] })).status).toBe(400);
  });

  it('runs, lists and reopens backtests', async () => {
    // The coverage messages name the workspace's data: start from none.
    expect((await t.call('DELETE', '/_workbench/state')).status).toBe(200);
    await t.call('POST', '/Locations', { locations: [location('L1')] });
    await t.call('POST', '/Items', { items: [item('I1', ['SKU1'])] });
    await t.call('POST', '/Stock', {
      stock: [{ locationId: 'L1', skuId: 'SKU1', quantity: 9, stockDateTime: '2024-02-20T00:00:00Z' }],
    });
    // A backtest needs sales inside its period: refused, naming the data, until there are.
    const refused = await t.call('POST', '/_workbench/backtests', { from: '2024-03-01', to: '2024-03-10' });
    expect(refused.status).toBe(422);
    expect(refused.json.detail).toMatch(/no backtest of 2024-03-01 … 2024-03-10: the workspace holds no sales/);
    await t.call('POST', '/Sales', {
      sales: ['2024-03-02', '2024-03-10'].map((d, i) =>
        sale(`BT-${i}`, [salesLine(`BT-${i}-1`, 'SKU1', 1)], { salesDateTime: `${d}T12:00:00Z` }),
      ),
    });
    const later = await t.call('POST', '/_workbench/backtests/jobs', { from: '2024-03-01', to: '2030-03-10' });
    expect(later.status).toBe(422);
    const pastTheLastSale = new RegExp(
      "it runs past the last sale \\(the workspace's sales run from 2024-03-02 to 2024-03-10 " +
        'and its stock is known from 2024-02-20\\); pick a period within 2024-03-02 … 2024-03-10',
    );
    expect(later.json.detail).toMatch(pastTheLastSale);
    const run = await t.call('POST', '/_workbench/backtests', { from: '2024-03-01', to: '2024-03-10' });
    expect(run.status).toBe(200);
    expect(run.json.run).toMatchObject({ from: '2024-03-01', to: '2024-03-10', status: 'completed' });
    expect(run.json.daily).toHaveLength(10);
    expect(run.json.summary.simulated).toHaveProperty('inStockRate');
    const list = await t.call('GET', '/_workbench/backtests');
    expect(list.json.runs.map((r: { runId: string }) => r.runId)).toContain(run.json.run.runId);
    expect((await t.call('GET', `/_workbench/backtests/${run.json.run.runId}`)).json.daily).toEqual(run.json.daily);
    expect((await t.call('GET', '/_workbench/backtests/nope')).status).toBe(404);
    expect((await t.call('POST', '/_workbench/backtests', { from: 'March' })).status).toBe(400);
    const other = await t.call('POST', '/_workbench/backtests', { from: '2024-03-01', to: '2024-03-05' });
    const both = await t.call('GET', `/_workbench/backtests/${run.json.run.runId}/compare/${other.json.run.runId}`);
    expect(both.status).toBe(200);
    expect(both.json.a.daily).toEqual(run.json.daily);
    expect(both.json.b.daily).toHaveLength(5);
    expect(both.json.difference.sales).toBeCloseTo(
      other.json.summary.simulated.sales - run.json.summary.simulated.sales,
      4,
    );
    const byLocation = await t.call('GET', `/_workbench/backtests/${run.json.run.runId}/groups/location`);
    const groups = byLocation.json.groups as { id: string; simulated: { carriedDays: number; stockOutDays: number } }[];
    expect(groups.map((g) => g.id)).toContain('L1');
    expect(groups.reduce((n, g) => n + g.simulated.carriedDays, 0)).toBe(run.json.summary.simulated.carriedDays);
    expect(run.json.summary.simulated.carriedDays).toBeGreaterThan(0);
    expect((await t.call('GET', `/_workbench/backtests/${run.json.run.runId}/groups/brand`)).status).toBe(400);
    expect((await t.call('GET', '/_workbench/backtests/nope/groups/style')).status).toBe(404);
    const started = await t.call('POST', '/_workbench/backtests/jobs', { from: '2024-03-01', to: '2024-03-10' });
    expect(started.json).toMatchObject({ status: 'running', days: 10 });
    let job = started.json;
    while (job.status === 'running') {
      await new Promise((r) => setTimeout(r, 20));
      job = (await t.call('GET', `/_workbench/backtests/jobs/${job.jobId}`)).json;
    }
    expect(job).toMatchObject({ status: 'completed', daysDone: 10 });
    expect((await t.call('GET', `/_workbench/backtests/${job.runId}`)).json.daily).toEqual(run.json.daily);
    expect((await t.call('POST', '/_workbench/backtests/jobs', { from: '2024-03-10', to: '2024-03-01' })).status).toBe(
      400,
    );
    expect(
      (await t.call('POST', '/_workbench/backtests/jobs', { from: '2024-03-01', to: '2024-03-10', scenario: 'nope' }))
        .status,
    ).toBe(404);
    expect((await t.call('GET', '/_workbench/backtests/jobs/job-999')).status).toBe(404);
    const missing = await t.call('GET', `/_workbench/backtests/${run.json.run.runId}/compare/nope`);
    expect(missing.status).toBe(404);
    expect(missing.json.detail).toMatch(/no backtest run "nope"/);
  });

  it('resets the workspace with DELETE /_workbench/state', async () => {
    const s = await testServer();
    try {
      await s.call('POST', '/Brands', { brands: [{ brandId: 'B', code: 'B' }] });
      expect((await s.call('DELETE', '/_workbench/state')).status).toBe(200);
      expect((await s.call('GET', '/_workbench/data/Brands/B')).status).toBe(404);
    } finally {
      await s.close();
    }
  });
});
