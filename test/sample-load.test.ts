import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from './workbench-bin.js';
import { Workbench } from '../engine/service/workbench.js';
import { datasetFromFileName } from '../engine/ingest/file-dataset.js';
import { manualClock } from './fixtures.js';

const DEMO = join(process.cwd(), 'samples', 'demo');
const dir = mkdtempSync(join(tmpdir(), 'wb-demo-'));
const ws = join(dir, 'ws');
let output: string;
let code: number;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  try {
    const r = await promisify(execFile)(process.execPath, [BIN, 'load', '--workspace', ws, DEMO], { encoding: 'utf8' });
    output = r.stdout;
    code = 0;
  } catch (e: any) {
    output = e.stdout + e.stderr;
    code = e.code;
  }
});

describe('the committed sample', () => {
  it('loads whole through the CLI', () => {
    const files = readdirSync(DEMO).filter((f) => f.endsWith('.json'));
    expect(code, output).toBe(0);
    expect(output).toContain(`of ${files.length} files`);
    expect(output).not.toMatch(/REJECTED|^warning /m);
  });

  describe('in the workspace', () => {
    let wb: Workbench;
    // The sample's history ends on 2025-12-31: the lint looks at it from the next day.
    beforeAll(async () => {
      wb = await Workbench.open(ws, { clock: manualClock('2026-01-01T00:00:00Z') });
    });
    afterAll(async () => wb.close());

    it('holds every record of the files', async () => {
      const expected = new Map<string, number>();
      for (const f of readdirSync(DEMO).filter((x) => x.endsWith('.json'))) {
        const d = datasetFromFileName(f)!;
        const body = JSON.parse(readFileSync(join(DEMO, f), 'utf8'));
        expected.set(d.name, (expected.get(d.name) ?? 0) + body[d.envelope].length);
      }
      const summary = await wb.summary();
      for (const [name, n] of expected) expect(summary.find((s) => s.dataset === name)!.live, name).toBe(n);
      expect(expected.get('Sales')).toBeGreaterThan(10_000);
    });

    it('shows every planted pitfall in the lint, and nothing else', async () => {
      const report = await wb.lint();
      const f = (rule: string) => report.findings.find((x) => x.rule === rule)!;
      const ids = (rule: string) => f(rule).examples.map((e) => e.id);
      expect(ids('barcode-as-sku-id')).toEqual(['8712340000399']);
      // The barcode-as-skuId SKU also uses that value as its code.
      expect(ids('code-equals-id')).toEqual(['8712340000399', 'MC-ACC']);
      expect(ids('attribute-id-reused')).toEqual(['IT10007-material']);
      expect(new Set(ids('bare-line-number-ids'))).toEqual(new Set(['ST-001-20240102-0001']));
      expect(f('sales-line-moved').count).toBe(0);
      expect(f('listed-twice').count).toBe(0);
      expect(ids('store-without-address')).toEqual(['ST-002']);
      expect(ids('location-name-not-unique')).toEqual(['ST-003', 'ST-004']);
      expect(ids('currency-not-local').sort()).toEqual(['PO-000001', 'ST-004-20240102-0002']);
      expect(ids('quantity-to-receive-differs')).toEqual(['PO-000021']);
      expect(ids('open-po-past-due')).toEqual(['PO-000019']);
      expect(f('cost-price-missing').count).toBe(3);
      expect(f('cost-price-negative').count).toBe(1);
      expect(f('unknown-sku').examples.every((e) => e.detail.includes('IT10004-GRY-L'))).toBe(true);
      // Its 180 references are one SKU: said once, with how often and where.
      expect(f('unknown-sku').repeats).toEqual({
        groups: 1,
        top: [
          {
            detail: 'skuId "IT10004-GRY-L" was never sent in /Items',
            count: f('unknown-sku').count,
            datasets: ['PurchaseOrders', 'Sales', 'Stock'],
          },
        ],
      });
      expect(f('barcode-as-sku-id').repeats).toBeUndefined();
      expect(ids('style-mixed-colors')).toEqual(['IT10006-BLK']);
      expect(f('unknown-master-data').count).toBe(0);
      expect(f('unknown-location').count).toBe(0);
      // A clean export: no charges sold as SKUs, amounts that follow their quantities, no outlying lines, returns
      // a day or more after their sales, stock kept wherever there are sales, and stock that never goes below zero.
      for (const rule of [
        'non-merchandise-sku',
        'sales-amount-inconsistent',
        'sales-quantity-outlier',
        'cancellations-as-returns',
        'sales-without-stock',
        'negative-actual-stock',
      ])
        expect(f(rule).count, rule).toBe(0);
    });
  });
});

describe('workbench recommend on the committed sample', () => {
  it('proposes with reasons, approves as one batch, and refuses bad settings clearly', async () => {
    const bin = BIN;
    const exec = promisify(execFile);
    const r = await exec(
      process.execPath,
      [bin, 'recommend', '-w', ws, '--as-of', '2026-01-01', '--approve', '--description', 'first run', '-n', '3'],
      { encoding: 'utf8' },
    );
    expect(r.stdout).toMatch(/^run run-\S+ as of 2026-01-01: \d+ proposals/);
    const proposalLine = new RegExp(
      '^(InitialDistribution|Replenishment) +WH-0\\d → \\S+ \\S+ × \\d+: (new style|below target)',
      'm',
    );
    expect(r.stdout).toMatch(proposalLine);
    expect(r.stdout).toMatch(/approved \d+ as batch AB-\S+/);
    const bad = join(dir, 'bad-settings.json');
    (await import('node:fs')).writeFileSync(bad, JSON.stringify({ defaults: { serviceLevel: 1.5 } }));
    const err = await exec(process.execPath, [bin, 'recommend', '-w', ws, '--settings', bad], {
      encoding: 'utf8',
    }).catch((e) => e);
    expect(err.code).toBe(2);
    expect(err.stderr).toMatch(/settings rejected: \/defaults\/serviceLevel/);
  });
});
