/**
 * Browser mode end to end: `workbench web` on the committed sample, the UI in headless Chromium driven by
 * playwright-core (the system's, else the one inside an npm package: see browser.ts).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../workbench-bin.js';
import { demoWorkspace } from '../demo-workspace.js';
import type { Browser, Page } from 'playwright-core';
import { DuckDBInstance } from '@duckdb/node-api';
import { launchBrowser } from './browser.js';
import { printed } from '../serve-process.js';
import { ARROW_STREAM, PROPOSAL_COLUMNS, rowsToArrow, TOTAL_COUNT_HEADER } from '../../engine/server/arrow.js';

const ROOT = process.cwd();
const SHOTS = join(ROOT, 'test-output', 'screenshots');
const dir = mkdtempSync(join(tmpdir(), 'wb-e2e-'));
let server: ChildProcess;
let url: string;
let browser: Browser;

beforeAll(async () => {
  demoWorkspace(join(dir, 'ws'));
  server = spawn(process.execPath, [BIN, 'web', '-w', join(dir, 'ws'), '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Read to the end, so that a full pipe never stops the server.
  server.stdout!.resume();
  server.stderr!.resume();
  const [open] = await Promise.all([printed(server, /^open (\S+)$/m), printed(server, /listening on/)]);
  url = open[1];
  const launched = await launchBrowser();
  browser = launched.browser;
  console.log(`end-to-end tests in ${launched.source}, Chromium ${browser.version()}`);
  mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dir, { recursive: true, force: true });
});

/**
 * How long any wait for a state may take before the test fails: long enough for a 2-core machine busy with other
 * work (a backtest, a sweep, a load behind a page), so that only a state that never comes fails a test.
 */
const WAIT_MS = 120_000;
/**
 * How long a point of the sweep's chart is hovered for its tooltip before the next spot is tried: a spot may be the
 * frontier's line rather than a point, which shows none.
 */
const TOOLTIP_MS = 15_000;

/** A page whose every wait (`waitFor`, a click's wait for its target) is bounded by WAIT_MS. */
async function newPage(options?: Parameters<Browser['newPage']>[0]) {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(WAIT_MS);
  return page;
}

/** A text's JSON, or the text itself while it is none. */
function objectOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * One screen of the app in a fresh page whose console errors and uncaught exceptions are collected,
 * bar those matching `expected`.
 */
async function openScreen(tab: string, width: number, height: number, expected?: RegExp) {
  const page = await newPage({ viewport: { width, height } });
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && !expected?.test(m.text()) && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  await page.getByRole('tab', { name: tab }).click();
  return { page, problems };
}

/**
 * The Workspace's datasets table once its counts are the workspace's own: after a load the screen marks them busy
 * until it has read them again, so what is read here is never a count from before the load.
 */
async function freshCounts(page: Page): Promise<Record<string, string>> {
  const table = page.locator('table[aria-label="Datasets"][aria-busy="false"]');
  await table.waitFor();
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-dataset'), tr.querySelectorAll('td')[1].textContent]));
  return Object.fromEntries(rows);
}

/** A call to the admin API with the session key `workbench web` printed, as the screens make it: its JSON. */
async function admin(method: string, path: string, body?: unknown) {
  const key = new URLSearchParams(new URL(url).hash.slice(1));
  const res = await fetch(`${new URL(url).origin}/_workbench/${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: {
      authorization: `Bearer ${key.get('token')}`,
      'x-tenant': key.get('tenant')!,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('browser mode', { timeout: 4 * WAIT_MS }, () => {
  it('shows the datasets and the data quality of the workspace, without console errors', async () => {
    const { page, problems } = await openScreen('Workspace', 1280, 900);
    const sales = page.locator('table[aria-label="Datasets"] tr[data-dataset="Sales"]');
    await sales.waitFor();
    expect(await sales.locator('td').nth(1).innerText()).toBe('10,418');
    expect(await page.locator('tr[data-dataset="Locations"] td').nth(1).innerText()).toBe('8');
    const finding = page.locator('li[data-rule="code-equals-id"].finding--bad');
    await finding.waitFor();
    expect(await finding.innerText()).toContain('MC-ACC');
    expect(await page.locator('li[data-rule="unknown-location"].finding--bad').count()).toBe(0);
    // An example opens the record it speaks of, as it was sent.
    await finding.getByRole('button', { name: 'MerchandiseCategories MC-ACC' }).click();
    const record = finding.locator('pre[data-record="MerchandiseCategories/MC-ACC"]');
    expect(JSON.parse(await record.innerText())).toMatchObject({ merchandiseCategoryId: 'MC-ACC', code: 'MC-ACC' });
    // Findings that say one thing are counted together, and the examples say how many more there are.
    const unknownSku = page.locator('li[data-rule="unknown-sku"]');
    expect((await unknownSku.getByTestId('repeats').innerText()).split(/\n+/)).toEqual([
      'All 180 say one thing:',
      'skuId "IT10004-GRY-L" was never sent in /Items — 180 times, in PurchaseOrders, Sales and Stock',
    ]);
    expect(await unknownSku.locator('.finding__more').innerText()).toMatch(/^… and 170 more/);
    // A style is no record of its own: its example is plain text.
    expect(await page.locator('li[data-rule="style-mixed-colors"] .finding__examples button').count()).toBe(0);
    // Narrowed to what was found, most first, and by text; exported whole.
    const rules = () => page.locator('li.finding').evaluateAll((els) => els.map((e) => e.getAttribute('data-rule')));
    await page.getByLabel('Only what was found').check();
    await page.getByLabel('Most found first').check();
    const counts = (await page.locator('li.finding .finding__count').allInnerTexts()).map((t) =>
      Number(t.replace(/,/g, '')),
    );
    expect(counts.every((n) => n > 0)).toBe(true);
    expect(counts).toEqual([...counts].sort((x, y) => y - x));
    await page.getByLabel('Filter the checks').fill('MC-ACC');
    expect(await rules()).toContain('code-equals-id');
    expect(await rules()).not.toContain('style-mixed-colors');
    const [lintFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const lintCsv = readFileSync((await lintFile.path())!, 'utf8');
    expect(lintCsv.split('\r\n')[0]).toBe('rule,title,count,dataset,id,detail');
    expect(lintCsv).toContain('code-equals-id');
    await page.getByLabel('Filter the checks').fill('');
    await page.getByLabel('Only what was found').uncheck();
    // The session key leaves the address bar once kept.
    expect(page.url()).not.toContain('token=');
    await page.screenshot({ path: join(SHOTS, 'datasets-and-quality.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('loads the first screen alone: the charts and every other screen on their first visit', async () => {
    const page = await newPage({ viewport: { width: 1280, height: 900 } });
    const scripts = new Map<string, number>();
    page.on('response', async (r) => {
      if (!r.url().endsWith('.js')) return;
      scripts.set(new URL(r.url()).pathname.split('/').pop()!, (await r.body()).length);
    });
    await page.goto(url);
    await page.locator('table[aria-label="Datasets"]').waitFor();
    const firstScreen = [...scripts.values()].reduce((a, b) => a + b, 0);
    console.log(`first screen: ${scripts.size} scripts, ${(firstScreen / 1024).toFixed(0)} KiB`);
    expect(firstScreen).toBeLessThan(400 * 1024);
    expect([...scripts.keys()].some((name) => name.startsWith('Chart-'))).toBe(false);
    await page.getByRole('tab', { name: 'Backtest' }).click();
    await page.locator('input[name="from"]').waitFor();
    await expect.poll(() => [...scripts.keys()].some((name) => name.startsWith('Backtest-'))).toBe(true);
    await page.close();
  });

  it('runs a backtest and shows simulated against actual KPIs and daily charts', async () => {
    const { page, problems } = await openScreen('Backtest', 1280, 1000);
    await page.fill('input[name="from"]', '2025-03-03');
    await page.fill('input[name="to"]', '2025-04-27');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    const inStock = page.locator('[data-kpi="inStockRate"]');
    await inStock.waitFor();
    expect(await inStock.innerText()).toMatch(/In-stock rate\s+\d+\.\d%\s+actual \d+\.\d%/);
    expect(await page.locator('.card').count()).toBe(7);
    // How much rests on estimates, said beside the cards.
    const estimatesHint = new RegExp(
      '^Demand [\\d,.]+ units, of it [\\d,.]+ estimated \\(\\d+\\.\\d%\\):' +
        ' .* The engine sold [\\d,.]+ of the estimated units\\.',
    );
    expect(await page.getByTestId('estimates').innerText()).toMatch(estimatesHint);
    // What the tills recorded stands beside the sales value.
    expect(await page.getByTestId('estimates').innerText()).toMatch(
      /Recorded revenue of the period: -?[\d,.]+ LOCAL \(/,
    );
    // The world the run met: its transit, from the data, and the deliveries on both sides.
    expect(await page.getByTestId('world').innerText()).toMatch(
      new RegExp(
        'Transit in the world the data shows: 0 days \\(stock levels\\) to ST-001.*' +
          'Deliveries to the stores .*: [\\d,]+ simulated, [\\d,]+ in fact',
        's',
      ),
    );
    expect(await page.locator('.hint').first().innerText()).toMatch(/Run bt-\S+, 2025-03-03 … 2025-04-27/);
    const charts = page.getByRole('img', { name: /simulated and actual/ });
    expect(await charts.count()).toBe(4);
    // 56 days, two series each (four for sales and lost sales, and for stock at the stores and at the warehouses);
    // the in-stock line may skip days with nothing on sale.
    const points = await charts.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-points'))));
    expect(points[0]).toBe(112);
    expect(points[1]).toBeGreaterThan(100);
    expect(points[2]).toBe(224);
    expect(points[3]).toBe(224);
    // Every chart switches to weeks together (eight of them: the period starts on a Monday), and back.
    // One switch for the page, not one per chart.
    expect(await page.getByRole('group', { name: /by day or by week/ }).count()).toBe(1);
    await page.getByRole('group', { name: 'Charts: by day or by week' }).getByText('Weekly').click();
    await expect.poll(() => charts.first().getAttribute('data-points')).toBe('16');
    expect(await charts.nth(3).getAttribute('data-points')).toBe('32');
    await page.getByRole('group', { name: 'Charts: by day or by week' }).getByText('Daily').click();
    await expect.poll(() => charts.first().getAttribute('data-points')).toBe('112');
    // The engine's figure against the actual one, coloured by which is better.
    const card = async (kpi: string) => {
      const [value, actual] = await page
        .locator(`[data-kpi="${kpi}"] .card__value, [data-kpi="${kpi}"] .card__actual`)
        .allInnerTexts();
      const tone = await page.locator(`[data-kpi="${kpi}"] .card__change`).getAttribute('data-tone');
      return {
        simulated: Number(value.replace(/[,%]/g, '')),
        actual: Number(/actual ([\d,.]+)/.exec(actual)![1].replace(/,/g, '')),
        tone,
      };
    };
    const fill = await card('fillRate');
    expect(fill.tone).toBe(fill.simulated > fill.actual ? 'better' : fill.simulated < fill.actual ? 'worse' : 'same');
    const lostCard = await card('lostSales');
    expect(lostCard.tone).toBe(
      lostCard.simulated < lostCard.actual ? 'better' : lostCard.simulated > lostCard.actual ? 'worse' : 'same',
    );
    const box = await page.locator('.chart canvas').first().boundingBox();
    expect(box!.width).toBeGreaterThan(600);
    expect(box!.height).toBeGreaterThan(200);
    // Where the stock-outs were: by location, worst first, then by style and narrowed by id.
    const byLocation = page.locator('table[aria-label="KPIs by location"] tbody tr');
    await byLocation.first().waitFor();
    const locationDays = (await byLocation.locator('td:nth-child(2)').allInnerTexts()).map((t) =>
      Number(t.replace(/,/g, '')),
    );
    expect(locationDays.length).toBeGreaterThan(1);
    expect(locationDays).toEqual([...locationDays].sort((x, y) => y - x));
    const total = Number((await page.locator('[data-kpi="stockOutDays"] .card__value').innerText()).replace(/,/g, ''));
    expect(locationDays.reduce((n, d) => n + d, 0)).toBe(total);
    // Sorted by any column (lost sales, most first after a second click), and exported as shown.
    const lostHeading = page.locator('table[aria-label="KPIs by location"] th', { hasText: /^Lost sales$/ });
    await lostHeading.click();
    await lostHeading.click();
    const lostByLocation = (await byLocation.locator('td:nth-child(6)').allInnerTexts()).map((t) =>
      Number(t.replace(/,/g, '')),
    );
    expect(lostByLocation).toEqual([...lostByLocation].sort((x, y) => y - x));
    const [breakdownFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const breakdownCsv = readFileSync((await breakdownFile.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(breakdownCsv[0]).toMatch(/^location,name,kind,stockOutDays simulated,stockOutDays actual,/);
    expect(breakdownCsv).toHaveLength(locationDays.length + 1);
    expect(breakdownCsv.find((l) => l.startsWith('ST-005,'))).toMatch(/^ST-005,Nordvik Ede,store,/);
    // Stores by their names beside their ids; narrowed by kind, and by a name typed.
    await expect
      .poll(() => page.locator('tr[data-group="ST-005"] td').first().innerText())
      .toBe('ST-005 · Nordvik Ede');
    await page.selectOption('select[name="kind"]', 'warehouse');
    await expect
      .poll(() => byLocation.locator('td:first-child').allInnerTexts())
      .toEqual(['WH-01 · Nordvik Distribution Centre Tilburg (warehouse)']);
    await page.selectOption('select[name="kind"]', '');
    await page.fill('input[name="find"]', 'eindhoven');
    await expect.poll(() => byLocation.evaluateAll((trs) => trs.map((tr) => tr.dataset.group))).toEqual(['ST-001']);
    await page.fill('input[name="find"]', '');
    // Styles by description and colour, with their category, narrowed to one category and to those with activity.
    await page.selectOption('select[name="level"]', 'style');
    const byStyle = page.locator('table[aria-label="KPIs by style"] tbody tr');
    await byStyle.first().waitFor();
    expect(await byStyle.first().locator('td').first().innerText()).toMatch(/^\S+ · \S.*, \S/);
    const allStyles = Number(/of ([\d,]+) styles/.exec(await page.getByTestId('breakdown-count').innerText())![1]);
    const category = (await byStyle.first().locator('td').nth(1).innerText()).trim();
    expect(category).not.toBe('');
    await page.getByLabel('Category').selectOption({ label: category });
    await expect
      .poll(async () => new Set(await byStyle.locator('td:nth-child(2)').allInnerTexts()))
      .toEqual(new Set([category]));
    await page.getByLabel('Category').selectOption('');
    await page.getByLabel('Only rows with activity').check();
    const active = Number(/of ([\d,]+) styles/.exec(await page.getByTestId('breakdown-count').innerText())![1]);
    expect(active).toBeGreaterThan(0);
    expect(active).toBeLessThan(allStyles);
    await page.getByLabel('Only rows with activity').uncheck();
    const firstStyle = (await byStyle.first().getAttribute('data-group'))!;
    await page.fill('input[name="find"]', firstStyle);
    await page
      .getByTestId('breakdown-count')
      .filter({ hasText: /^1 of 1 styles/ })
      .waitFor();
    expect(await byStyle.count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, 'backtest.png'), fullPage: true });

    // A long run shows how far it got and can be cancelled, keeping the days it replayed. The sample replays
    // two years in about a second, so the cancel may come after the end: both outcomes must be whole.
    await page.fill('input[name="from"]', '2024-01-01');
    await page.fill('input[name="to"]', '2025-12-30');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page
      .getByTestId('backtest-progress')
      .filter({ hasText: /^\d+ of 730 days$/ })
      .waitFor();
    await page
      .getByRole('button', { name: 'Cancel' })
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    await page.getByRole('button', { name: 'Run backtest' }).waitFor();
    expect(await page.locator('.hint').first().innerText()).toMatch(/2024-01-01 … 2025-12-30/);
    const notice = page.getByRole('status');
    const replayed = (await notice.count())
      ? Number(
          /^Cancelled after (\d+) of 730 days; the days replayed are kept as run bt-/.exec(
            await notice.innerText(),
          )![1],
        )
      : 730;
    expect(await charts.first().getAttribute('data-points')).toBe(String(2 * replayed));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('drills a backtest down to a style and to one location × SKU, day by day, and back', async () => {
    const { page, problems } = await openScreen('Backtest', 1280, 1000);
    await page.fill('input[name="from"]', '2025-03-03');
    await page.fill('input[name="to"]', '2025-04-27');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.locator('[data-kpi="inStockRate"]').waitFor();
    await page.selectOption('select[name="level"]', 'style');
    const byStyle = page.locator('table[aria-label="KPIs by style"] tbody tr');
    await byStyle.first().waitFor();
    const styleId = (await byStyle.first().getAttribute('data-group'))!;
    await byStyle.first().getByRole('button', { name: styleId }).click();

    // The style, day by day over its selling life in the run (the 56 days, or fewer when it started or ended within
    // them): two series each, six for demand and sales, four for stock, three for arrivals.
    const styleCharts = page.getByRole('img', { name: new RegExp(`^Style ${styleId}: .*simulated against actual$`) });
    await styleCharts.first().waitFor();
    const lifeHint = page.getByTestId('selling-life');
    const life = (await lifeHint.count()) ? Number(/\((\d+) of 56 days\)/.exec(await lifeHint.innerText())![1]) : 56;
    const lifeStart = (await lifeHint.count())
      ? /life in this run: (\S+) …/.exec(await lifeHint.innerText())![1]
      : '2025-03-03';
    expect(life).toBeGreaterThan(0);
    expect(await styleCharts.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-points'))))).toEqual([
      2 * life,
      6 * life,
      4 * life,
      3 * life,
    ]);
    // Named as the business knows it: the style by its description and colour, its category, each store by name.
    expect(await page.locator('.drill__title').first().innerText()).toMatch(
      new RegExp(`^Style ${styleId} · .+, .+ \\(.+\\), day by day$`),
    );
    const styleTotals = new RegExp(
      '^2025-03-03 … 2025-04-27: [\\d,.]+ stock-out SKU-days and [\\d,.]+ units of lost sales with the engine,' +
        ' against [\\d,.]+ and [\\d,.]+ in fact,' +
        ' of a demand of [\\d,.]+ units \\([\\d,.]+ of them estimated\\)\\.$',
    );
    expect(await page.getByTestId('style-totals').innerText()).toMatch(styleTotals);
    // Its location × SKUs, most simulated lost sales first.
    const cells = page.locator(`table[aria-label="Location × SKUs of style ${styleId}"] tbody tr`);
    await cells.first().waitFor();
    expect(await page.getByTestId('cell-count').innerText()).toMatch(
      /^\d+ of \d+ location × SKUs, most lost sales first/,
    );
    expect(await cells.first().getByRole('button').innerText()).toMatch(/^[\w-]+ · Nordvik [^·]+ · [\w-]+$/);
    const lost = (await cells.locator('td:nth-child(3)').allInnerTexts()).map((v) => Number(v.replace(/,/g, '')));
    expect(lost.length).toBeGreaterThan(1);
    expect(lost).toEqual([...lost].sort((a, b) => b - a));
    await page.screenshot({ path: join(SHOTS, 'backtest-style.png'), fullPage: true });
    // Sorted by size, and exported as shown.
    await page.locator(`table[aria-label="Location × SKUs of style ${styleId}"] th`, { hasText: /^Size$/ }).click();
    const sizes = await cells.locator('td:nth-child(2)').allInnerTexts();
    expect(sizes).toEqual([...sizes].sort((x, y) => x.localeCompare(y)));
    const [cellsFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const cellsCsv = readFileSync((await cellsFile.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(cellsCsv[0]).toMatch(/^locationId,skuId,sizeId,lostSales,/);
    expect(cellsCsv.slice(1).map((l) => l.split(',')[2])).toEqual(sizes.slice(0, cellsCsv.length - 1));

    // One of them: stock, sales, demand estimate, arrivals and transfers day by day, with a table.
    const [locationId, skuId] = (await cells.first().getAttribute('data-cell'))!.split('/');
    await cells.first().getByRole('button').click();
    const cellCharts = page.getByRole('img', { name: new RegExp(`^${locationId} · ${skuId}: `) });
    await cellCharts.first().waitFor();
    // Its days are the style's selling life: no empty rows before the style came.
    expect(await cellCharts.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-points'))))).toEqual([
      2 * life,
      6 * life,
      3 * life,
    ]);
    const days = page.locator(`table[aria-label="${locationId} · ${skuId} day by day"] tbody tr`);
    expect(await days.count()).toBe(life);
    expect(await days.first().locator('td').first().innerText()).toMatch(new RegExp(`^${lifeStart}`));
    await page.screenshot({ path: join(SHOTS, 'backtest-cell.png'), fullPage: true });
    const [daysFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const daysCsv = readFileSync((await daysFile.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(daysCsv[0]).toMatch(/^date,simStock,actStock,/);
    expect(daysCsv).toHaveLength(life + 1);
    // The days sort by any column too: most sold first after a second click, and back by date.
    const dayHeading = (name: RegExp) =>
      page.locator(`table[aria-label="${locationId} · ${skuId} day by day"] th`, { hasText: name });
    await dayHeading(/^Sales$/).click();
    await dayHeading(/^Sales$/).click();
    const sold = (await days.locator('td:nth-child(4)').allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
    expect(sold).toEqual([...sold].sort((x, y) => y - x));
    await dayHeading(/^Date$/).click();
    expect(await days.first().locator('td').first().innerText()).toMatch(new RegExp(`^${lifeStart}`));

    // And back: to the style, then to the breakdown as it was left (by style).
    await page.getByRole('button', { name: `← Style ${styleId}` }).click();
    await cells.first().waitFor();
    await page.getByRole('button', { name: '← All styles' }).click();
    await byStyle.first().waitFor();
    expect(await page.locator('select[name="level"]').inputValue()).toBe('style');
    expect(await styleCharts.count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('gives every view an address: Back, Forward and a reload return to it, and kept runs have a list', async () => {
    const { page, problems } = await openScreen('Workspace', 1280, 1000);
    const hash = () => page.evaluate(() => decodeURIComponent(window.location.hash));
    // The form's period starts as the sales the workspace holds.
    const sales = page.locator('table[aria-label="Datasets"] tr[data-dataset="Sales"] td');
    await sales.first().waitFor();
    const [salesFrom, salesTo] = [await sales.nth(3).innerText(), await sales.nth(4).innerText()];
    await page.getByRole('tab', { name: 'Backtest' }).click();
    expect(await hash()).toBe('#/backtest');
    expect(await page.locator('input[name="from"]').inputValue()).toBe(salesFrom);
    expect(await page.locator('input[name="to"]').inputValue()).toBe(salesTo);

    // A run, a style of it, a location × SKU of that: each an address of its own.
    await page.fill('input[name="from"]', '2025-03-03');
    await page.fill('input[name="to"]', '2025-04-27');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.locator('[data-kpi="inStockRate"]').waitFor();
    const runId = /^#\/backtest\/(bt-\S+)$/.exec(await hash())![1];
    await page.selectOption('select[name="level"]', 'style');
    const byStyle = page.locator('table[aria-label="KPIs by style"] tbody tr');
    await byStyle.first().waitFor();
    const styleId = (await byStyle.first().getAttribute('data-group'))!;
    await byStyle.first().getByRole('button', { name: styleId }).click();
    expect(await hash()).toBe(`#/backtest/${runId}/style/${styleId}`);
    const cells = page.locator(`table[aria-label="Location × SKUs of style ${styleId}"] tbody tr`);
    await cells.first().waitFor();
    const [locationId, skuId] = (await cells.first().getAttribute('data-cell'))!.split('/');
    await cells.first().getByRole('button').click();
    expect(await hash()).toBe(`#/backtest/${runId}/style/${styleId}/cell/${locationId}/${skuId}`);
    const cellDays = page.locator(`table[aria-label="${locationId} · ${skuId} day by day"] tbody tr`);
    await cellDays.first().waitFor();
    const shownDays = await cellDays.count();

    // A reload comes back to the same location × SKU of the same run.
    await page.reload();
    await cellDays.first().waitFor();
    await expect.poll(() => cellDays.count()).toBe(shownDays);

    // Back: the style, the run, the empty form; Forward: the run again.
    await page.goBack();
    await cells.first().waitFor();
    expect(await cellDays.count()).toBe(0);
    await page.goBack();
    await page.locator('table[aria-label="KPIs by location"], table[aria-label="KPIs by style"]').first().waitFor();
    expect(await hash()).toBe(`#/backtest/${runId}`);
    await page.goBack();
    expect(await hash()).toBe('#/backtest');
    expect(await page.locator('[data-kpi="inStockRate"]').count()).toBe(0);
    await page.goForward();
    await page.locator('[data-kpi="inStockRate"]').waitFor();
    expect(await page.locator('.hint').first().innerText()).toContain(`Run ${runId}, 2025-03-03 … 2025-04-27`);

    // Another screen and back: the run as it was left, and the form as it was filled in.
    await byStyle.first().getByRole('button', { name: styleId }).click();
    await cells.first().waitFor();
    await page.getByRole('tab', { name: 'Settings' }).click();
    expect(await hash()).toMatch(/^#\/settings/);
    await page.getByRole('tab', { name: 'Backtest' }).click();
    expect(await hash()).toBe(`#/backtest/${runId}/style/${styleId}`);
    await cells.first().waitFor();
    expect(await page.locator('input[name="from"]').inputValue()).toBe('2025-03-03');

    // The kept runs, a screen of their own: a second run over the same period, both listed, compared, one deleted.
    await page.goto(`${new URL(page.url()).origin}/#/backtest`);
    await page.fill('input[name="from"]', '2025-03-03');
    await page.fill('input[name="to"]', '2025-04-27');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page.waitForFunction((old) => /^#\/backtest\/bt-/.test(location.hash) && !location.hash.includes(old), runId);
    const second = /^#\/backtest\/(bt-\S+)$/.exec(await hash())![1];
    await page.getByRole('tab', { name: 'Runs' }).click();
    expect(await hash()).toBe('#/runs');
    const rows = page.locator('table[aria-label="Kept runs"] tbody tr');
    await rows.first().waitFor();
    const listed = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-run')));
    expect(listed.indexOf(second)).toBeLessThan(listed.indexOf(runId));
    const row = page.locator(`tr[data-run="${runId}"]`);
    expect(await row.innerText()).toMatch(/2025-03-03 … 2025-04-27\s+default\s+\d+\.\d% \/ \d+\.\d%/);
    // A run gets a label and a note, kept with it: listed by its label, the note under it, and named so elsewhere.
    await row.getByRole('button', { name: 'Label…' }).click();
    const labelForm = page.getByRole('form', { name: `Label of ${runId}` });
    await labelForm.getByLabel('Label').fill('Spring, default settings');
    await labelForm.getByLabel('Note').fill('The first look at March and April.');
    await labelForm.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Run ${runId} is labelled Spring, default settings` })
      .waitFor();
    expect(await row.getByRole('link').innerText()).toBe('Spring, default settings');
    expect(await row.getByTestId('run-note').innerText()).toBe('The first look at March and April.');
    await page.screenshot({ path: join(SHOTS, 'runs.png'), fullPage: true });
    await page.getByRole('checkbox', { name: `Choose ${runId}` }).check();
    await page.getByRole('checkbox', { name: `Choose ${second}` }).check();
    await page.getByRole('button', { name: 'Compare the two chosen' }).click();
    expect(await hash()).toBe(`#/compare/${runId}/${second}`);
    await page.locator('table[aria-label="KPIs of both runs"]').waitFor();
    expect(await page.locator('select[name="a"] option:checked').innerText()).toMatch(
      new RegExp(`^Spring, default settings \\(${runId}\\) · default · 2025-03-03 … 2025-04-27$`),
    );
    await page.goBack();
    await rows.first().waitFor();
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Deleted run ${runId}` })
      .waitFor();
    expect(await page.locator(`tr[data-run="${runId}"]`).count()).toBe(0);
    // Its address now says it is gone, in words.
    await page.goto(`${new URL(page.url()).origin}/#/backtest/${runId}`);
    await page
      .getByRole('alert')
      .filter({ hasText: `Run ${runId} could not be opened` })
      .waitFor();
    expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
    await page.close();
  });

  it('saves a scenario only when valid, names each bad field, and runs a backtest with it', async () => {
    // The refused save is a 400 the browser reports on its own; anything else is a fault.
    const { page, problems } = await openScreen('Settings', 1280, 1000, /status of 400/);
    // A form read off the settings' schema: each field shows the value in force when left empty.
    const field = (path: string) => page.locator(`[name="${path}"]`);
    await field('/defaults/serviceLevel').waitFor();
    expect(await field('/defaults/serviceLevel').getAttribute('placeholder')).toBe('0.9');
    expect(await field('/redistribution/tripCost').getAttribute('placeholder')).toBe('25');

    // A new scenario is asked for by name, never one kept already; the form empties, and says it is not saved yet.
    await page.getByRole('button', { name: 'New…' }).click();
    await page.fill('input[name="scenario-name"]', 'default');
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByRole('alert').filter({ hasText: '"default" is kept already.' }).waitFor();
    await page.fill('input[name="scenario-name"]', 'lean');
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByTestId('unsaved').filter({ hasText: 'lean is not saved yet' }).waitFor();
    // Unsaved looks unsaved: named so in the picker, the notice in amber rather than the green of work done.
    expect(await page.getByLabel('Saved scenarios').locator('option:checked').innerText()).toBe('lean — not saved yet');
    expect(await page.getByTestId('unsaved').getAttribute('class')).toBe('unsaved');
    expect(await page.getByTestId('unsaved').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(255, 243, 220)',
    );
    expect(await page.evaluate(() => location.hash)).toBe('#/settings/lean');
    await field('/defaults/serviceLevel').fill('2');
    await field('/defaults/leadTimeDays').fill('1.5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Not saved: 2 values were refused. Each is marked where it was typed.' })
      .waitFor();
    // Each refused value is marked where it was typed, in words, and said nowhere else.
    expect(
      await page.locator('.field--bad input').evaluateAll((els) => els.map((e) => e.getAttribute('name'))),
    ).toEqual(['/defaults/serviceLevel', '/defaults/leadTimeDays']);
    expect(await page.locator('.field--bad .field__problem').allInnerTexts()).toEqual([
      'must be at most 0.9999',
      'must be a whole number',
    ]);
    const body = await page.locator('body').innerText();
    expect(body.split('must be at most 0.9999')).toHaveLength(2);
    expect(await page.getByLabel('Settings problems').count()).toBe(0);
    expect(await page.locator('select[aria-label="Saved scenarios"] option').allInnerTexts()).not.toContain('lean');

    // Typed key by key, as a person types: "0." on the way to "0.8" stays as typed.
    await field('/defaults/serviceLevel').fill('');
    await field('/defaults/serviceLevel').pressSequentially('0.8');
    expect(await field('/defaults/serviceLevel').inputValue()).toBe('0.8');
    await field('/defaults/leadTimeDays').fill('');
    // One category of the data gets its own minimum; the others keep the values for every category.
    await page.selectOption('select[aria-label="Merchandise category"]', 'MC-DRS');
    expect(await field('/categories/MC-DRS/serviceLevel').getAttribute('placeholder')).toBe('0.8');
    await field('/categories/MC-DRS/presentationMinimum').fill('3');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved scenario lean' }).waitFor();
    await expect
      .poll(() => page.locator('select[aria-label="Saved scenarios"] option').allInnerTexts())
      .toContain('lean');
    expect(await page.getByTestId('unsaved').count()).toBe(0);
    // What the scenario sets stands out from what it inherits.
    expect(
      await page.locator('.field--set input').evaluateAll((els) => els.map((e) => e.getAttribute('name'))),
    ).toEqual(['/defaults/serviceLevel', '/categories/MC-DRS/presentationMinimum']);

    // An edit not saved survives a visit to another screen, and can be discarded.
    await field('/defaults/serviceLevel').fill('0.7');
    await page.getByRole('tab', { name: 'Workspace' }).click();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByTestId('unsaved').filter({ hasText: 'Unsaved changes to lean' }).waitFor();
    expect(await page.getByLabel('Saved scenarios').locator('option:checked').innerText()).toBe(
      'lean — unsaved changes',
    );
    expect(await field('/defaults/serviceLevel').inputValue()).toBe('0.7');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect.poll(() => field('/defaults/serviceLevel').inputValue()).toBe('0.8');

    // Duplicated, renamed, deleted: the copy holds the same settings.
    await page.getByRole('button', { name: 'Duplicate…' }).click();
    await page.fill('input[name="scenario-name"]', 'lean2');
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied lean as lean2' }).waitFor();
    expect(await page.evaluate(() => location.hash)).toBe('#/settings/lean2');
    expect(await field('/defaults/serviceLevel').inputValue()).toBe('0.8');
    await page.getByRole('button', { name: 'Rename…' }).click();
    await page.fill('input[name="scenario-name"]', 'lean-copy');
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByRole('status').filter({ hasText: 'Renamed lean2 to lean-copy' }).waitFor();
    await expect
      .poll(() => page.locator('select[aria-label="Saved scenarios"] option').allInnerTexts())
      .toEqual(expect.arrayContaining(['lean', 'lean-copy']));
    expect(await page.locator('select[aria-label="Saved scenarios"] option').allInnerTexts()).not.toContain('lean2');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted scenario lean-copy' }).waitFor();
    expect(await page.locator('select[aria-label="Saved scenarios"] option').allInnerTexts()).not.toContain(
      'lean-copy',
    );
    await page.selectOption('select[aria-label="Saved scenarios"]', 'lean');
    await expect.poll(() => field('/defaults/serviceLevel').inputValue()).toBe('0.8');

    // The JSON view holds the same scenario, and refuses what is not JSON.
    await page.getByRole('button', { name: 'JSON' }).click();
    const editor = page.getByLabel('Scenario settings');
    expect(JSON.parse(await editor.inputValue())).toEqual({
      defaults: { serviceLevel: 0.8 },
      categories: { 'MC-DRS': { presentationMinimum: 3 } },
    });
    await editor.fill('{"defaults": {"serviceLevel": 0.8');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /Not JSON/ })
      .waitFor();

    // A reload finds the unsaved text where it was left; discarded, the scenario as kept in the workspace.
    await page.reload();
    await page.getByTestId('unsaved').filter({ hasText: 'Unsaved changes to lean' }).waitFor();
    expect(await editor.inputValue()).toBe('{"defaults": {"serviceLevel": 0.8');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await expect
      .poll(async () => objectOrText(await editor.inputValue()))
      .toEqual({
        defaults: { serviceLevel: 0.8 },
        categories: { 'MC-DRS': { presentationMinimum: 3 } },
      });
    await page.getByRole('button', { name: 'Form' }).click();
    await expect.poll(() => field('/defaults/serviceLevel').inputValue()).toBe('0.8');
    await page.selectOption('select[aria-label="Merchandise category"]', 'MC-DRS');
    expect(await field('/categories/MC-DRS/presentationMinimum').inputValue()).toBe('3');
    await page.screenshot({ path: join(SHOTS, 'settings.png'), fullPage: true });

    await page.getByRole('tab', { name: 'Backtest' }).click();
    await page.fill('input[name="from"]', '2025-03-03');
    await page.fill('input[name="to"]', '2025-03-16');
    await page.selectOption('select[name="scenario"]', 'lean');
    await page.getByRole('button', { name: 'Run backtest' }).click();
    await page
      .locator('.hint')
      .filter({ hasText: /scenario lean/ })
      .waitFor();
    expect(await page.locator('.hint').first().innerText()).toMatch(
      /Run bt-\S+, 2025-03-03 … 2025-03-16, scenario lean/,
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  const fulfilmentTitle =
    'says on the form where an online shop ships from, and a backtest refuses a pick that is no warehouse';
  it(fulfilmentTitle, async () => {
    const { page, problems } = await openScreen('Settings', 1280, 1000, /status of 4\d\d/);
    await page.getByRole('button', { name: 'New…' }).click();
    await page.fill('input[name="scenario-name"]', 'webshop');
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByRole('button', { name: 'Add an online shop' }).click();
    // Offered first: the location the data's sales make online, and a warehouse.
    expect(await page.locator('select[aria-label="Online location"]').inputValue()).toBe('WEB-01');
    expect(await page.locator('select[aria-label="Warehouse of WEB-01"]').inputValue()).toBe('WH-01');
    await expect
      .poll(() => page.locator('select[aria-label="Warehouse of WEB-01"] option:checked').textContent())
      .toMatch(/^WH-01 — .* \(warehouse\)$/);
    // Picked by mistake: a store.
    await page.selectOption('select[aria-label="Warehouse of WEB-01"]', 'ST-002');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved scenario webshop' }).waitFor();
    await page.getByRole('button', { name: 'JSON' }).click();
    expect(JSON.parse(await page.getByLabel('Scenario settings').inputValue())).toEqual({
      fulfilledFrom: { 'WEB-01': 'ST-002' },
    });

    const backtest = async () => {
      await page.getByRole('tab', { name: 'Backtest' }).click();
      await page.fill('input[name="from"]', '2025-03-03');
      await page.fill('input[name="to"]', '2025-03-16');
      await page.selectOption('select[name="scenario"]', 'webshop');
      await page.getByRole('button', { name: 'Run backtest' }).click();
    };
    await backtest();
    await page
      .getByRole('alert')
      .filter({ hasText: '/fulfilledFrom/WEB-01: ST-002 is not a warehouse (it is a store): an online location sells' })
      .waitFor();

    // Put right on the form, the run goes through.
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Form' }).click();
    await page.selectOption('select[aria-label="Warehouse of WEB-01"]', 'WH-01');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved scenario webshop' }).waitFor();
    await backtest();
    await page
      .locator('.hint')
      .filter({ hasText: /scenario webshop/ })
      .waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('compares two kept runs side by side: KPIs, b − a and both days', async () => {
    // Two runs of one period under two scenarios, through the admin API with this session's key.
    const origin = new URL(url).origin;
    await admin('PUT', 'scenarios/rich', { defaults: { serviceLevel: 0.99, presentationMinimum: 3 } });
    const a = await admin('POST', 'backtests', { from: '2025-03-03', to: '2025-03-30' });
    const b = await admin('POST', 'backtests', { from: '2025-03-03', to: '2025-03-30', scenario: 'rich' });

    const { page, problems } = await openScreen('Compare', 1280, 1100);
    await page.locator(`select[name="b"] option[value="${b.run.runId}"]`).waitFor({ state: 'attached' });
    await page.selectOption('select[name="a"]', a.run.runId);
    await page.selectOption('select[name="b"]', b.run.runId);
    await page.getByRole('button', { name: 'Compare' }).click();
    const row = page.locator('table[aria-label="KPIs of both runs"] tr[data-kpi="stockOutDays"] td');
    await row.first().waitFor();
    const cells = await row.allInnerTexts();
    const [sa, sb] = [a.summary.simulated.stockOutDays as number, b.summary.simulated.stockOutDays as number];
    expect(sa).not.toBe(sb);
    expect(cells).toEqual([
      'Stock-out days',
      sa.toLocaleString('en'),
      sb.toLocaleString('en'),
      `${sb > sa ? '+' : '−'}${Math.abs(sb - sa).toLocaleString('en')}`,
      a.summary.actual.stockOutDays.toLocaleString('en'),
    ]);
    expect(await page.getByRole('note').count()).toBe(0);
    expect(await page.getByRole('img', { name: /both runs/ }).count()).toBe(2);
    // Rates differ in percentage points.
    const fillRow = await page
      .locator('table[aria-label="KPIs of both runs"] tr[data-kpi="fillRate"] td')
      .allInnerTexts();
    expect(fillRow[3]).toMatch(/^[+−±]\d+\.\d pp$/);
    // Named by their scenarios, with the settings that set them apart.
    expect(await page.locator('table[aria-label="KPIs of both runs"] th').allInnerTexts()).toContain('b: rich');
    expect(
      await page
        .locator('table[aria-label="Settings that differ"] tr[data-setting="defaults.serviceLevel"] td')
        .allInnerTexts(),
    ).toEqual(['defaults.serviceLevel', '0.9', '0.99']);
    // The styles behind the difference, each opening its drill in run b.
    const moved = page.locator('table[aria-label="Styles that moved most"] tbody tr');
    expect(await moved.count()).toBeGreaterThan(0);
    const first = await moved.first().getAttribute('data-style');
    expect(await moved.first().locator('a').getAttribute('href')).toBe(`#/backtest/${b.run.runId}/style/${first}`);
    await page.screenshot({ path: join(SHOTS, 'compare.png'), fullPage: true });

    // A run of another period can be set beside it, with a word of warning.
    const short = await admin('POST', 'backtests', { from: '2025-03-03', to: '2025-03-09' });
    await page.reload();
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.locator(`select[name="b"] option[value="${short.run.runId}"]`).waitFor({ state: 'attached' });
    await page.selectOption('select[name="a"]', a.run.runId);
    await page.selectOption('select[name="b"]', short.run.runId);
    await page.getByRole('button', { name: 'Compare' }).click();
    await page
      .getByRole('note')
      .filter({ hasText: /different periods/ })
      .waitFor();

    // Opened without a pair, it compares the newest run with the newest earlier one of the same period, skipping the
    // short run in between, and says so in its address.
    const c = await admin('POST', 'backtests', { from: '2025-03-03', to: '2025-03-30', scenario: 'rich' });
    await page.goto(`${origin}/#/compare`);
    await page.locator('table[aria-label="KPIs of both runs"]').waitFor();
    expect(await page.evaluate(() => decodeURIComponent(location.hash))).toBe(
      `#/compare/${b.run.runId}/${c.run.runId}`,
    );
    expect(await page.getByRole('note').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sweeps a grid of settings: progress, the frontier, a point opened, the pick kept as a scenario', async () => {
    const { page, problems } = await openScreen('Backtest', 1280, 1000);
    // The period starts as the Backtest screen's.
    await page.fill('input[name="from"]', '2025-06-02');
    await page.fill('input[name="to"]', '2025-07-27');
    await page.getByRole('tab', { name: 'Sweep' }).click();
    const form = page.getByRole('form', { name: 'Set up a sweep' });
    expect(await form.getByLabel('From', { exact: true }).inputValue()).toBe('2025-06-02');
    expect(await form.getByLabel('To', { exact: true }).inputValue()).toBe('2025-07-27');
    // Settings by name, their paths on hover.
    expect(await form.getByLabel('Setting 1').locator('option:checked').innerText()).toBe('Service level');
    expect(await form.getByLabel('Setting 2').locator('option:checked').getAttribute('title')).toMatch(
      /^redistribution\.tripCost: /,
    );
    await form.getByLabel('Values of setting 1').fill('0.8, 0.9, 0.97');
    await form.getByLabel('Values of setting 2').fill('10, 200');
    await form.getByRole('button', { name: 'Run sweep (6 points)' }).click();
    // One progress bar for the whole sweep, counted in days over every point.
    await page
      .getByTestId('sweep-progress')
      .filter({ hasText: /of 336 over every point/ })
      .waitFor();
    await page.waitForFunction(() => /^#\/sweep\/sw-/.test(location.hash));
    const sweepId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]);
    const chart = page.getByRole('img', { name: new RegExp(`^Frontier of ${sweepId}`) });
    await chart.waitFor();
    expect(await chart.getAttribute('data-points')).toBe('6');
    expect(Number(await chart.getAttribute('data-frontier'))).toBeGreaterThan(0);
    await page.getByRole('group', { name: 'Stock in' }).getByRole('button', { name: 'Value' }).click();
    await expect
      .poll(() => chart.getAttribute('aria-label'))
      .toMatch(/average store stock \(value at cost\) against lost sales/);
    await page.getByRole('group', { name: 'Stock in' }).getByRole('button', { name: 'Units' }).click();
    const table = page.getByRole('table', { name: 'Sweep points' });
    expect(await table.locator('tbody tr').count()).toBe(6);
    // The table sorts by any measure, and the frontier's points are marked in it.
    await table.getByRole('columnheader', { name: 'Store stock' }).click();
    const stockColumn = async () =>
      (await table.locator('tbody tr td:nth-child(6)').allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
    await expect.poll(async () => (await stockColumn()).every((x, i, all) => i === 0 || all[i - 1] <= x)).toBe(true);
    expect(await table.getByText('on it').count()).toBe(Number(await chart.getAttribute('data-frontier')));
    // The CSV export holds the table's rows in its order, with the same points, settings and frontier marks.
    const [pointsFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(pointsFile.suggestedFilename()).toBe(`${sweepId}.csv`);
    const [csvHeader, ...csvRows] = readFileSync((await pointsFile.path())!, 'utf8')
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    const headings = await table.locator('thead th').allInnerTexts();
    expect(csvHeader).toEqual([
      'point',
      'defaults.serviceLevel',
      'redistribution.tripCost',
      'lostSales',
      'fillRate',
      'inventoryUnits',
      'trips',
      'units',
      'frontier',
      'runId',
    ]);
    expect(headings.slice(1, 3)).toEqual(['Service level', 'Redistribution: trip cost']);
    expect(
      await table.locator('thead th[title]').evaluateAll((ths) => ths.map((th) => th.getAttribute('title'))),
    ).toEqual(csvHeader.slice(1, 3));
    // The pick starts on a goal some point meets.
    await page
      .getByTestId('picked')
      .filter({ hasText: /^point \d$/ })
      .waitFor();
    // The axes span every point and the history's own.
    const axes = JSON.parse((await chart.getAttribute('data-axes'))!);
    const actualStock = Number(
      /store stock ([\d,]+)/.exec(await page.getByTestId('actual-point').innerText())![1].replace(/,/g, ''),
    );
    const stocks = [...csvRows.map((r) => Number(r[5])), actualStock];
    expect(axes.x.min).toBeLessThanOrEqual(Math.min(...stocks) - 0.5);
    expect(axes.x.max).toBeGreaterThanOrEqual(Math.max(...stocks) + 0.5);
    const lost = csvRows.map((r) => Number(r[3]));
    expect(axes.y.min).toBeLessThan(Math.min(...lost));
    expect(axes.y.max).toBeGreaterThan(Math.max(...lost));
    expect(csvHeader).toHaveLength(headings.length + 1);
    expect(csvRows).toHaveLength(await table.locator('tbody tr').count());
    const shown = await table
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.innerText.trim())));
    expect(csvRows.map((r) => r.slice(0, 3))).toEqual(shown.map((r) => r.slice(0, 3)));
    expect(csvRows.map((r) => Math.round(Number(r[5])).toLocaleString('en'))).toEqual(shown.map((r) => r[5]));
    expect(csvRows.map((r) => r[8] === 'yes')).toEqual(shown.map((r) => r[8] === 'on it'));
    const hrefs = await table.locator('tbody tr a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(csvRows.map((r) => `#/backtest/${encodeURIComponent(r[9])}`)).toEqual(hrefs);
    // A fill rate asked for picks the cheapest point meeting it; one no point meets says so.
    await page.getByLabel('Constraint value').fill('100');
    await page.getByTestId('picked').filter({ hasText: 'no point meets it' }).waitFor();
    await page.getByLabel('Constraint value').fill('50');
    await page
      .getByTestId('picked')
      .filter({ hasText: /^point \d$/ })
      .waitFor();
    const picked = Number((await page.getByTestId('picked').innerText()).replace('point ', ''));
    expect(await table.locator(`tr[data-point="${picked}"]`).getAttribute('class')).toBe('row--picked');
    await page.getByLabel('Scenario name').fill('sweep-e2e');
    await page.getByRole('button', { name: 'Save as scenario' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Kept point ${picked} as scenario sweep-e2e` })
      .waitFor();
    await page.screenshot({ path: join(SHOTS, 'sweep.png'), fullPage: true });
    // The sweep is kept, its runs stay out of the run list, and a point opens its run.
    expect(await page.locator(`table[aria-label="Kept sweeps"] tr[data-sweep="${sweepId}"]`).innerText()).toMatch(
      new RegExp(
        '2025-06-02 … 2025-07-27\\s+Service level 0\\.8, 0\\.9, 0\\.97 × ' +
          'Redistribution: trip cost 10, 200\\s+6\\s+completed',
      ),
    );
    // A point clicked on the chart opens its run. The chart draws on a canvas: find a point by its colour there,
    // tell which one it is by the tooltip hovering it shows, and click it.
    await chart.scrollIntoViewIfNeeded();
    const spots = await chart.evaluate((el) => {
      const canvas = el.querySelector('canvas')!;
      const scale = canvas.width / canvas.getBoundingClientRect().width;
      const { data, width, height } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      // The points off the frontier, then the frontier's (its line too), below the title and legend (grid top 44).
      const found: { x: number; y: number }[][] = [];
      for (const [r, g, b] of [
        [0x8f, 0xb8, 0xe3],
        [0x2f, 0x6f, 0xb3],
      ]) {
        const hits: { x: number; y: number }[] = [];
        for (let y = Math.ceil(44 * scale); y < height; y++)
          for (let x = 0; x < width; x++) {
            const i = (y * width + x) * 4;
            if (Math.abs(data[i] - r) + Math.abs(data[i + 1] - g) + Math.abs(data[i + 2] - b) < 6 && data[i + 3] > 250)
              hits.push({ x: x / scale, y: y / scale });
          }
        // One spot per cluster of pixels: the middle of a drawn point.
        const clusters: { x: number; y: number; n: number }[] = [];
        for (const h of hits) {
          const c = clusters.find((k) => Math.hypot(k.x / k.n - h.x, k.y / k.n - h.y) < 12);
          if (c) Object.assign(c, { x: c.x + h.x, y: c.y + h.y, n: c.n + 1 });
          else clusters.push({ ...h, n: 1 });
        }
        found.push(clusters.map((c) => ({ x: c.x / c.n, y: c.y / c.n })));
      }
      return found.flat().slice(0, 30);
    });
    expect(spots.length).toBeGreaterThan(0);
    const box = (await chart.boundingBox())!;
    let clicked: number | undefined;
    for (const spot of spots) {
      await page.mouse.move(box.x + spot.x, box.y + spot.y);
      const tip = chart.getByText(/^point \d+$/);
      if (
        !(await tip.waitFor({ timeout: TOOLTIP_MS }).then(
          () => true,
          () => false,
        ))
      )
        continue;
      clicked = Number((await tip.innerText()).replace('point ', ''));
      await page.mouse.click(box.x + spot.x, box.y + spot.y);
      break;
    }
    expect(clicked).toBeDefined();
    const clickedRun = csvRows.find((r) => Number(r[0]) === clicked)![9];
    await page.waitForFunction((hash) => location.hash === hash, `#/backtest/${encodeURIComponent(clickedRun)}`);
    // The point's run says what the point set on top of its scenario, and which sweep it belongs to.
    const clickedRow = csvRows.find((r) => Number(r[0]) === clicked)!;
    await page
      .locator('.hint')
      .filter({
        hasText: new RegExp(
          `scenario default with Service level ${clickedRow[1]}, Redistribution: trip cost ${clickedRow[2]} ` +
            `\\(point ${clicked} of sweep ${sweepId}\\)`,
        ),
      })
      .waitFor();
    await page.goBack();
    await table.locator(`tr[data-point="${picked}"] a`).click();
    await page.waitForFunction((id) => location.hash.startsWith(`#/backtest/${id}-`), sweepId);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('option', { name: 'sweep-e2e' }).waitFor({ state: 'attached' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('runs recommendations, filters them, approves a selection as one batch and exports CSV', async () => {
    const { page, problems } = await openScreen('Transfers', 1400, 1000);
    await page.getByRole('button', { name: 'Run recommendations' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /proposals/ })
      .waitFor();
    const count = page.getByTestId('transfer-count');
    await count.filter({ hasText: /of [1-9][\d,]* lines/ }).waitFor();
    const total = Number(/of ([\d,]+) lines/.exec(await count.innerText())![1].replace(/,/g, ''));
    expect(total).toBeGreaterThan(100);
    // Virtualized: only the rows in view (and a few more) are in the page.
    expect(await page.locator('.vtable__body [role="row"]').count()).toBeLessThan(60);

    await page.selectOption('select[name="type"]', 'Replenishment');
    await count.filter({ hasText: new RegExp(`of ${total.toLocaleString('en')} lines`) }).waitFor();
    const types = await page.locator('.vtable__body [role="row"] [role="cell"]:nth-child(2)').allInnerTexts();
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['Replenishment']));
    expect(await page.locator('.vtable__body .why').first().getAttribute('title')).toMatch(/below target/);

    // Sorted by any column: quantity, largest first after a second click.
    await page.getByRole('columnheader', { name: 'Qty' }).click();
    await page.getByRole('columnheader', { name: 'Qty' }).click();
    expect(await page.getByRole('columnheader', { name: 'Qty' }).getAttribute('aria-sort')).toBe('descending');
    const quantities = (await page.locator('.vtable__body [role="row"] .num').allInnerTexts()).map(Number);
    expect(quantities).toEqual([...quantities].sort((x, y) => y - x));
    // A reason reads in full under the table, at 1,024 px as well.
    await page.setViewportSize({ width: 1024, height: 900 });
    await page.locator('.vtable__body .why').first().click();
    const whyBox = (await page.getByTestId('why-full').boundingBox())!;
    expect(whyBox.x + whyBox.width).toBeLessThanOrEqual(1024);
    expect(await page.getByTestId('why-full').innerText()).toMatch(
      /^Replenishment [\w-]+ · Nordvik .+ → [\w-]+ · Nordvik /,
    );
    expect(await page.getByTestId('why-full').innerText()).toContain(
      (await page.locator('.vtable__body .why').first().getAttribute('title'))!,
    );

    const boxes = page.locator('.vtable__body input[type="checkbox"]');
    const selectedCount = () => page.locator('.approve span').first().innerText();
    // A shift-click selects the lines between; the heading's box selects every open line shown, then none.
    await boxes.nth(0).click();
    await boxes.nth(4).click({ modifiers: ['Shift'] });
    expect(await selectedCount()).toBe('5 selected');
    await page.getByLabel('select every open line shown').click();
    const open = Number(/([\d,]+) open/.exec(await count.innerText())![1].replace(/,/g, ''));
    expect(await selectedCount()).toBe(`${open} selected`);
    await page.getByLabel('select every open line shown').click();
    expect(await selectedCount()).toBe('0 selected');
    const chosen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const row = page.locator('.vtable__body [role="row"]').nth(i);
      chosen.push((await row.getAttribute('data-reference'))!);
      await boxes.nth(i).check();
    }
    await page.fill('input[name="description"]', 'week 1 test batch');
    await page.fill('input[name="dispatch"]', '2026-01-05');
    await page.getByRole('button', { name: 'Approve selection' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Approved 3 as batch AB-/ })
      .waitFor();
    for (const ref of chosen) {
      await page
        .locator(`[data-reference="${ref}"] .status`)
        .filter({ hasText: /approved AB-/ })
        .waitFor();
    }
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = await (await import('node:fs/promises')).readFile((await file.path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'referenceId,transferType,fromLocationId,toLocationId,skuId,styleId,quantity,approvalBatchId,reason',
    );
    expect(lines.slice(1).every((l) => l.split(',')[1] === 'Replenishment')).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'transfers.png') });
    // The notice belongs to this screen: it does not follow onto the others, and is here on coming back.
    for (const other of ['Sweep', 'Backtest', 'Integration', 'Load']) {
      await page.getByRole('tab', { name: other }).click();
      await page.getByRole('tab', { name: other, selected: true }).waitFor();
      expect(
        await page
          .getByRole('status')
          .filter({ hasText: /Approved 3 as batch/ })
          .count(),
        other,
      ).toBe(0);
    }
    await page.getByRole('tab', { name: 'Transfers' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Approved 3 as batch AB-/ })
      .waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('scrolls 100,000 transfer lines, rendering only the rows in view', async () => {
    const { page, problems } = await openScreen('Workspace', 1280, 900);
    // The list as the admin API pages it, made up here: what is measured is the table, not the engine.
    let arrowPages = 0;
    const TOTAL = 100_000;
    const kinds = ['Replenishment', 'Redistribution', 'InitialDistribution'];
    await page.route(/\/_workbench\/transfers\?/, (route) => {
      const q = new URL(route.request().url()).searchParams;
      const offset = Number(q.get('offset'));
      const limit = Number(q.get('limit'));
      const proposals = Array.from({ length: Math.max(0, Math.min(limit, TOTAL - offset)) }, (_, k) => {
        const i = offset + k;
        return {
          referenceId: `T-${String(i).padStart(6, '0')}`,
          runId: 'run-big',
          transferType: kinds[i % 3],
          fromLocationId: 'WH-01',
          toLocationId: `ST-${String(i % 100).padStart(3, '0')}`,
          skuId: `SKU-${i}`,
          styleId: `STY-${Math.floor(i / 10)}`,
          quantity: 1 + (i % 5),
          reason: `line ${i}: below target`,
        };
      });
      // The screen asks for Arrow columns, as the server answers them.
      if (!route.request().headers().accept?.includes(ARROW_STREAM))
        return route.fulfill({ json: { proposals, total: TOTAL } });
      arrowPages++;
      return route.fulfill({
        contentType: ARROW_STREAM,
        headers: { [TOTAL_COUNT_HEADER]: String(TOTAL) },
        body: Buffer.from(rowsToArrow(proposals, PROPOSAL_COLUMNS)),
      });
    });
    await page.getByRole('tab', { name: 'Transfers' }).click();
    await expect.poll(() => page.getByTestId('transfer-count').innerText()).toMatch(/^100,000 of 100,000 lines/);
    const rendered = () => page.locator('.vrow[data-reference]').count();
    expect(await rendered()).toBeLessThan(100);
    expect(arrowPages).toBeGreaterThanOrEqual(10);

    // Scrolled by frames, as a wheel would: each frame's time is measured and printed.
    const frames = await page.locator('.vtable__body').evaluate(async (el) => {
      const times: number[] = [];
      let last = performance.now();
      for (let f = 0; f < 120; f++) {
        el.scrollTop += 4_000;
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        times.push(now - last);
        last = now;
      }
      return times.sort((a, b) => a - b);
    });
    console.log(
      `transfers table: 100,000 lines, ${frames.length} scrolled frames, ` +
        `median ${frames[frames.length >> 1].toFixed(1)} ms, ` +
        `slowest ${frames[frames.length - 1].toFixed(1)} ms per frame`,
    );
    expect(await rendered()).toBeLessThan(100);
    await page.locator('.vtable__body').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.locator('.vrow[data-reference="T-099999"]').waitFor();
    // Filters run over all of them.
    await page.fill('input[name="style"]', 'STY-9999');
    await expect.poll(() => page.getByTestId('transfer-count').innerText()).toMatch(/^10 of 100,000 lines/);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows how to reach the API and each request in a live log, with its validation errors', async () => {
    const { page, problems } = await openScreen('Integration', 1280, 900);
    const curl = await page.getByTestId('curl').innerText();
    // Before a client calls, the log holds the screens' own calls only: said, with how to show them.
    await page
      .getByTestId('log-empty')
      .filter({ hasText: /are the screens' own calls to \/_workbench, hidden: tick The screens' own calls above/ })
      .waitFor();
    const tokenCurl = new RegExp(
      "^curl -s -X POST http:\\/\\/127\\.0\\.0\\.1:\\d+\\/Token -H 'X-Tenant: DEMO'" +
        ' -d grant_type=client_credentials -d client_id=workbench -d client_secret=\\S+$',
    );
    expect(curl).toMatch(tokenCurl);
    // An integrator's client, from the shown credentials: a token, then a batch with a mistake.
    const origin = new URL(url).origin;
    const secret = /client_secret=(\S+)$/.exec(curl)![1];
    const token = await (
      await fetch(`${origin}/Token`, {
        method: 'POST',
        headers: { 'x-tenant': 'DEMO', 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=workbench&client_secret=${secret}`,
      })
    ).json();
    const bad = await fetch(`${origin}/Sales`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.access_token}`,
        'x-tenant': 'DEMO',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        sales: [
          { salesId: 'E2E-1', salesDateTime: 'yesterday', currencyCode: 'LOCAL', locationId: 'ST-001', salesLines: [] },
        ],
      }),
    });
    expect(bad.status).toBe(400);
    const entry = page.locator('.log__entry[data-status="400"]').filter({ hasText: '/Sales' }).first();
    await entry.waitFor();
    expect(await entry.innerText()).toMatch(
      /\/sales\/0\/salesDateTime \[E2E-1\]: "yesterday" is not an ISO 8601 datetime/,
    );
    // A refusal without a list of errors says why; the screens' own calls stay out of the way until asked for.
    const noToken = await fetch(`${origin}/Brands`, { method: 'POST', headers: { 'x-tenant': 'DEMO' } });
    expect(noToken.status).toBe(401);
    const refused = page.locator('.log__entry[data-status="401"]').filter({ hasText: '/Brands' }).first();
    await refused.waitFor();
    expect(await refused.innerText()).toMatch(/the Authorization header is missing/);
    const own = page.locator('.log__entry').filter({ hasText: '/_workbench' });
    expect(await own.count()).toBe(0);
    await page.locator('input[name="log-own"]').check();
    await expect.poll(() => own.count()).toBeGreaterThan(0);
    await page.locator('input[name="log-own"]').uncheck();
    await page.locator('input[name="log-refused"]').check();
    await expect
      .poll(async () => await page.locator('.log__entry').evaluateAll((els) => els.map((e) => e.dataset.status)))
      .toEqual(expect.arrayContaining(['400', '401']));
    expect(await page.locator('.log__entry[data-status="200"]').count()).toBe(0);
    await page.locator('input[name="log-text"]').fill('authorization');
    await expect.poll(() => page.locator('.log__entry').count()).toBe(1);
    await page.locator('input[name="log-text"]').fill('');
    await page.locator('input[name="log-refused"]').uncheck();
    // By status class and by endpoint.
    await page.selectOption('select[name="log-status"]', '4xx');
    await page.selectOption('select[name="log-endpoint"]', 'POST /Sales');
    await expect
      .poll(async () => await page.locator('.log__entry').evaluateAll((els) => els.map((e) => e.dataset.status)))
      .toEqual(['400']);
    // Opened, an entry shows its request and its answer, secrets taken out, and the port it came in on.
    await entry.getByRole('button').first().click();
    const exchange = entry.getByTestId('log-exchange');
    await exchange.waitFor();
    const port = new URL(origin).port;
    expect(await exchange.innerText()).toContain(`port ${port}`);
    expect(await exchange.innerText()).toContain('"salesDateTime": "yesterday"');
    expect(await exchange.innerText()).toMatch(/Response: 400\s+\{\s+"type": "urn:replenishment-workbench:problem/);
    await page.screenshot({ path: join(SHOTS, 'integration-entry.png') });
    const [logFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const logCsv = readFileSync((await logFile.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(logCsv[0]).toBe('loggedAt,status,method,path,query,port,durationMs,records,errorCount,firstError');
    expect(logCsv.slice(1).every((l) => /,400,POST,\/Sales,/.test(l))).toBe(true);
    await page.selectOption('select[name="log-status"]', '');
    await page.selectOption('select[name="log-endpoint"]', '');
    // Read slowest first.
    await page.selectOption('select[name="log-order"]', 'slowest');
    const took = (await page.locator('.log__entry .log__meta').allInnerTexts()).map((t) =>
      Number(/· (\d+) ms/.exec(t)![1]),
    );
    expect(took.length).toBeGreaterThan(1);
    // Each shown rounded to the millisecond: in order to within that rounding.
    expect(took.every((ms, i) => i === 0 || ms <= took[i - 1] + 1)).toBe(true);
    await page.selectOption('select[name="log-order"]', 'newest');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the OpenAPI document' }).click();
    expect(JSON.parse(readFileSync(await (await download).path(), 'utf8'))).toMatchObject({ openapi: '3.1.0' });

    // A local API of its own for the integrator's client, with a tenant of their choosing.
    await page.locator('input[name="port"]').fill('0');
    await page.locator('input[name="tenant"]').fill('E2E');
    await page.getByRole('button', { name: 'Start' }).click();
    const apiUrl = await page.getByTestId('listener-url').innerText();
    const apiCurl = await page.getByTestId('listener-curl').innerText();
    expect(apiCurl).toContain(`${apiUrl}/Token -H 'X-Tenant: E2E'`);
    const apiToken = await (
      await fetch(`${apiUrl}/Token`, {
        method: 'POST',
        headers: { 'x-tenant': 'E2E', 'content-type': 'application/x-www-form-urlencoded' },
        body:
          'grant_type=client_credentials&client_id=workbench&client_secret=' +
          `${/client_secret=(\S+)$/.exec(apiCurl)![1]}`,
      })
    ).json();
    const wrong = await fetch(`${apiUrl}/Brands`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiToken.access_token}`,
        'x-tenant': 'E2E',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ brands: [{ brandId: 'BR-LOCAL-API' }] }),
    });
    expect(wrong.status).toBe(400);
    await page.locator('.log__entry[data-status="400"]').filter({ hasText: '/Brands' }).first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'integration.png') });
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('button', { name: 'Start' }).waitFor();
    await expect(fetch(`${apiUrl}/openapi.json`)).rejects.toThrow();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('loads picked files, each whole or not at all, and names every rejected record', async () => {
    const { page, problems } = await openScreen('Load', 1280, 900, /status of 400/);
    const json = (v: unknown) => Buffer.from(JSON.stringify(v));
    await page.setInputFiles('input[name="files"]', [
      {
        name: 'Brands-e2e.json',
        mimeType: 'application/json',
        buffer: json({ brands: [{ brandId: 'BR-E2E', code: 'E2E', description: 'from the UI' }] }),
      },
      {
        name: 'export.json',
        mimeType: 'application/json',
        buffer: json({
          sales: [
            {
              salesId: 'E2E-OK',
              salesDateTime: '2025-12-30T10:00:00Z',
              currencyCode: 'LOCAL',
              locationId: 'ST-001',
              salesLines: [],
            },
            {
              salesId: 'E2E-BAD',
              salesDateTime: 'tomorrow',
              currencyCode: 'LOCAL',
              locationId: 'ST-001',
              salesLines: [],
            },
          ],
        }),
      },
      { name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"brands": [') },
    ]);
    // Checked as the load will check them, before anything loads: two of three would be refused, so a load of
    // "only if every file passes" waits; each dataset on its own goes.
    await page.getByTestId('check-summary').filter({ hasText: '2 of 3 batches would be refused' }).waitFor();
    const checkedRow = (file: string) => page.locator(`table[aria-label="Files checked"] tr[data-file="${file}"]`);
    expect(await checkedRow('Brands-e2e.json').innerText()).toMatch(/Brands\s+1\s+passes/);
    expect(await checkedRow('export.json').innerText()).toMatch(
      /Would be refused, nothing of it applied\s+\/sales\/1\/salesDateTime \[E2E-BAD\]: "tomorrow" is not/,
    );
    expect(await page.getByRole('button', { name: 'Load 3 files' }).isDisabled()).toBe(true);
    await page.getByRole('radio', { name: 'each dataset on its own' }).check();
    await page.getByRole('button', { name: 'Load 3 files' }).click();
    // A load of a second or less tells its time, not a rate that reads as slowness.
    await page
      .getByTestId('load-progress')
      .filter({ hasText: /^3 of 3 files · 1 record · ([\d,]+ records\/s|\d+ ms) · 2 rejected$/ })
      .waitFor();
    const row = (file: string) => page.locator(`table[aria-label="Loaded files"] tr[data-file="${file}"]`);
    expect(await row('Brands-e2e.json').locator('td').allInnerTexts()).toEqual([
      'Brands-e2e.json',
      'Brands',
      '1',
      '1',
      '0',
      '0',
      'loaded',
    ]);
    expect(await row('export.json').innerText()).toMatch(
      /Rejected, nothing of it applied\s+\/sales\/1\/salesDateTime \[E2E-BAD\]: "tomorrow" is not an ISO 8601 datetime/,
    );
    expect(await row('notes.json').innerText()).toMatch(/Rejected, nothing of it applied: not JSON/);
    await page.screenshot({ path: join(SHOTS, 'load.png'), fullPage: true });
    // Files picked next: the outcome of those before is gone, theirs is checked.
    await page.setInputFiles('input[name="files"]', [
      { name: 'Brands-e2e2.json', mimeType: 'application/json', buffer: json({ brands: [] }) },
    ]);
    await page.getByTestId('check-summary').filter({ hasText: 'Every file passes' }).waitFor();
    expect(await page.locator('table[aria-label="Loaded files"]').count()).toBe(0);
    // Files dropped anywhere on the screen are picked as the file box picks them.
    const dropped = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      const body = JSON.stringify({ brands: [{ brandId: 'BR-DROP', code: 'DROP', description: 'dropped' }] });
      transfer.items.add(new File([body], 'Brands-dropped.json', { type: 'application/json' }));
      return transfer;
    });
    await page.getByTestId('drop-zone').dispatchEvent('dragover', { dataTransfer: dropped });
    await page.getByText('Drop the files to check them').waitFor();
    await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
    await page.getByTestId('check-summary').filter({ hasText: 'Every file passes: 1 record to load.' }).waitFor();
    expect(await page.getByText('JSON file to load: Brands-dropped.json.').count()).toBe(1);

    // The workspace counts what landed, and only that: E2E-OK went with its file's rejection.
    await page.getByRole('tab', { name: 'Workspace' }).click();
    expect(await freshCounts(page)).toMatchObject({ Brands: '5', Sales: '10,418' });
    expect(problems).toEqual([]);
    await page.close();
  });

  const csvScreenTitle =
    'maps CSV columns, previews the rows as they will load, ' +
    'loads them and names every rejected record by file, row and column';
  it(csvScreenTitle, async () => {
    const { page, problems } = await openScreen('Workspace', 1280, 1400);
    const before = Number((await freshCounts(page)).Items.replace(/,/g, ''));
    await page.getByRole('tab', { name: 'Load' }).click();
    const csv = (dir: string, name: string, edit = (t: string) => t) => ({
      name,
      mimeType: 'text/csv',
      buffer: Buffer.from(edit(readFileSync(join(ROOT, 'test', 'fixtures', 'csv', dir, name), 'utf8'))),
    });
    await page.setInputFiles('input[name="files"]', [
      csv('items', 'items.csv'),
      csv('items', 'skus.csv'),
      csv('items', 'barcodes.csv'),
      // One bad cell: the sales go back whole, named by file, row and column.
      csv('transactions', 'Sales.csv', (t) => t.replace('R-1002-1,1,SKU-300-OS,2,', 'R-1002-1,1,SKU-300-OS,"2,5",')),
    ]);
    const skus = page.locator('.mapping[data-file="skus.csv"]');
    await skus.getByLabel('Column colour loads into').waitFor();
    expect(await skus.getByLabel('What skus.csv holds').inputValue()).toBe('Items.skus');
    expect(await skus.getByLabel('Column sku_id loads into').inputValue()).toBe('skuId');
    // "colour" is no field's name: it is proposed for colorId as a guess, marked so until the user keeps it.
    await expect.poll(() => skus.getByLabel('Column colour loads into').inputValue()).toBe('colorId');
    expect(await skus.locator('tr[data-column="colour"] .guess').innerText()).toBe('guessed');
    expect(await skus.getByText('no column is loaded into colorId').count()).toBe(0);
    await skus.getByLabel('Column colour loads into').selectOption('colorId');
    await expect.poll(() => skus.locator('tr[data-column="colour"] .guess').count()).toBe(0);
    // A column no field takes says so at its row, once.
    expect(await skus.locator('tr[data-column="remark"]').innerText()).toContain('not loaded: no field takes it');
    expect(await skus.getByRole('list', { name: 'Warnings of skus.csv' }).count()).toBe(0);
    const firstRows = skus.getByRole('table', { name: 'First rows of skus.csv as they will be loaded' });
    await firstRows.locator('th', { hasText: /^colorId$/ }).waitFor();
    expect(await firstRows.locator('tbody tr').first().locator('td').allInnerTexts()).toEqual([
      '2',
      'IT-100',
      'SKU-100-S',
      'TEE-100-WHT-S',
      'WHT',
      'S',
      'ST-100-WHT',
    ]);
    expect(await skus.locator('.mapping__problems').count()).toBe(0);
    // The mapping as shown, saved as a file the command line loads the same files with.
    const [mappingFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save mapping file' }).click(),
    ]);
    const saved = JSON.parse(readFileSync((await mappingFile.path())!, 'utf8'));
    expect(saved['skus.csv']).toMatchObject({ level: 'Items.skus', columns: { colour: 'colorId', sku_id: 'skuId' } });
    const mapPath = join(dir, 'mapping.json');
    writeFileSync(mapPath, JSON.stringify(saved));
    const itemsDir = join(ROOT, 'test', 'fixtures', 'csv', 'items');
    const cli = execFileSync(process.execPath, [
      BIN,
      'load',
      '-q',
      '-w',
      // A level below the app's home folder, whose workspaces another test lists.
      join(dir, 'cli', 'ws'),
      '--map',
      mapPath,
      ...['items.csv', 'skus.csv', 'barcodes.csv'].map((f) => join(itemsDir, f)),
    ]).toString();
    expect(cli).toMatch(/3 records from 3 of 3 files/);
    expect(await page.locator('.mapping[data-file="barcodes.csv"] tbody tr[data-row="2"] td').allInnerTexts()).toEqual([
      '2',
      'SKU-100-S',
      'BC-1001',
      '8712345000011',
      'true',
    ]);
    const sales = page.locator('.mapping[data-file="Sales.csv"]');
    expect(await sales.getByLabel('What Sales.csv holds').inputValue()).toBe('Sales.salesLines');
    expect(await sales.locator('td.cell--bad').allInnerTexts()).toEqual(['2,5']);
    // Every row checked before loading, as the load will check it: the sales would be refused for that cell.
    // The cell is named with the file's first rows above; the check counts it there rather than telling it twice.
    const checkedSales = page.locator('table[aria-label="Files checked"] tr[data-file="Sales.csv"]');
    await checkedSales.getByTestId('told-above').waitFor();
    expect(await checkedSales.innerText()).toMatch(/^Sales\.csv\s+Sales\s+–\s+Would be refused, nothing of it applied/);
    expect(await checkedSales.getByTestId('told-above').innerText()).toBe('1 problem shown with its columns above');
    expect(await sales.getByRole('list', { name: 'Problems of Sales.csv' }).innerText()).toMatch(
      /Sales\.csv row 4, column "quantitySold": "2,5" is not a number/,
    );
    await page.screenshot({ path: join(SHOTS, 'load-csv-mapping.png'), fullPage: true });

    await page.getByRole('radio', { name: 'each dataset on its own' }).check();
    await page.getByRole('button', { name: 'Load 4 files' }).click();
    await page
      .getByTestId('load-progress')
      .filter({ hasText: /^4 of 4 files · 3 records · ([\d,]+ records\/s|\d+ ms) · 1 rejected$/ })
      .waitFor();
    const row = (files: string) => page.locator(`table[aria-label="Loaded files"] tr[data-file="${files}"]`);
    // skus.csv's remark column goes nowhere, and the load says so, in words.
    expect(await row('items.csv, skus.csv, barcodes.csv').locator('td').allInnerTexts()).toEqual([
      'items.csv, skus.csv, barcodes.csv',
      'Items',
      '3',
      '3',
      '0',
      '0',
      '1 warning\nskus.csv, column "remark": is not loaded: no field takes it (map it to one, or to null to leave ' +
        'it out on purpose)',
    ]);
    const rejectedSalesRow = new RegExp(
      'Rejected, nothing of it applied\\s+Sales\\.csv row 4, column "quantitySold"' +
        ' \\/sales\\/1\\/salesLines\\/0\\/quantitySold \\[R-1002\\]: "2,5" is not a number',
    );
    expect(await row('Sales.csv').innerText()).toMatch(rejectedSalesRow);

    // A row with a cell too many is named by its line, and the rest of the file still maps.
    await page.setInputFiles('input[name="files"]', [
      {
        name: 'export.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('locationId,skuId,targetQuantity\nST-001,SKU-100-S,4\nST-001,SKU-100-M,5,9\n'),
      },
    ]);
    const ragged = page.locator('.mapping[data-file="export.csv"]');
    await ragged.getByText('has 4 cells where the header has 3 columns').waitFor();
    await ragged.getByLabel('What export.csv holds').selectOption('StockTargets');
    await expect.poll(() => ragged.getByLabel('What export.csv holds').inputValue()).toBe('StockTargets');
    expect(await ragged.getByLabel('Column targetQuantity loads into').inputValue()).toBe('targetQuantity');
    await page.getByRole('tab', { name: 'Workspace' }).click();
    expect(await freshCounts(page)).toMatchObject({ Items: (before + 3).toLocaleString('en'), Sales: '10,418' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sends a full load from the Load screen, split over its files, deleting what they do not hold', async () => {
    const { page, problems } = await openScreen('Load', 1280, 900);
    const json = (v: unknown) => Buffer.from(JSON.stringify(v));
    await page.setInputFiles('input[name="files"]', [
      {
        name: 'Locations-extra.json',
        mimeType: 'application/json',
        buffer: json({ locations: [{ locationId: 'ST-E2E', code: 'E2E', name: 'Pop-up store' }] }),
      },
    ]);
    await page.getByRole('button', { name: 'Load 1 file' }).click();
    await page
      .getByTestId('load-progress')
      .filter({ hasText: /^1 of 1 file · 1 record\b/ })
      .waitFor();

    const { locations } = JSON.parse(readFileSync(join(ROOT, 'samples', 'demo', 'Locations.json'), 'utf8')) as {
      locations: unknown[];
    };
    await page.setInputFiles('input[name="files"]', [
      { name: 'Locations-1.json', mimeType: 'application/json', buffer: json({ locations: locations.slice(0, 4) }) },
      { name: 'Locations-2.json', mimeType: 'application/json', buffer: json({ locations: locations.slice(4) }) },
    ]);
    // The hint names the datasets as the workspace's summary lists them, once it is read.
    const fullLoadHint = new RegExp(
      '^Full load: locations, purchase orders and stock that these files do not hold are deleted ' +
        '\\(stock is set to 0\\)',
    );
    await expect.poll(() => page.getByTestId('full-load-hint').innerText()).toMatch(fullLoadHint);
    await page.getByLabel('Full load').check();
    // The counts read after the load are held back here, as a slow machine would: until they come, the Workspace
    // shows the counts from before the load and says they are.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/_workbench/summary', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Load 2 files' }).click();
    await page
      .getByTestId('load-progress')
      .filter({ hasText: /^2 of 2 files · 8 records/ })
      .waitFor();
    const row = (file: string) => page.locator(`table[aria-label="Loaded files"] tr[data-file="${file}"] td`);
    expect(await row('Locations-1.json').allInnerTexts()).toEqual([
      'Locations-1.json',
      'Locations',
      '4',
      '0',
      '0',
      '0',
      'kept for the full load, applied with its last file',
    ]);
    expect(await row('Locations-2.json').allInnerTexts()).toEqual([
      'Locations-2.json',
      'Locations',
      '4',
      '0',
      '8',
      '1',
      'loaded',
    ]);
    await page.getByRole('tab', { name: 'Workspace' }).click();
    await page.locator('table[aria-label="Datasets"][aria-busy="true"]').waitFor();
    expect(await page.locator('[data-behind-of="Datasets"]').innerText()).toBe(
      'Read before the last load: reading it again…',
    );
    release();
    expect((await freshCounts(page)).Locations).toBe('8');
    expect(await page.locator('[data-behind-of="Datasets"]').count()).toBe(0);
    await page.unrouteAll();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('loads a Parquet file as a CSV one, a bad cell named by file, row and column; names a non-UTF-8 CSV', async () => {
    const { page, problems } = await openScreen('Load', 1280, 900);
    const dir = mkdtempSync(join(tmpdir(), 'wb-e2e-parquet-'));
    const parquet = async (code: string) => {
      const path = join(dir, 'Brands.parquet');
      const db = await (await DuckDBInstance.create(':memory:')).connect();
      await db.run(
        `COPY (SELECT * FROM (VALUES ('BR-PQ1', 'PQ1', 'from Parquet'), ('BR-PQ2', ${code}, 'from Parquet too'))
                AS t(brandId, code, description)) TO '${path}' (FORMAT parquet)`,
      );
      db.closeSync();
      return { name: 'Brands.parquet', mimeType: 'application/octet-stream', buffer: readFileSync(path) };
    };
    await page.setInputFiles('input[name="files"]', [await parquet('NULL')]);
    const mapping = page.locator('.mapping[data-file="Brands.parquet"]');
    await mapping.waitFor();
    expect(await mapping.getByLabel('What Brands.parquet holds').inputValue()).toBe('Brands');
    // The first record is row 1: a Parquet file has no header row.
    expect((await mapping.locator('tbody tr[data-row="1"] td').allInnerTexts()).slice(0, 2)).toEqual(['1', 'BR-PQ1']);
    const checked = page.locator('table[aria-label="Files checked"] tr[data-file="Brands.parquet"]');
    await checked
      .filter({ hasText: /Brands\.parquet row 2, column "code" \/brands\/1\/code \[BR-PQ2\]: is required/ })
      .waitFor();
    await page.setInputFiles('input[name="files"]', [await parquet("'PQ2'")]);
    await page.getByTestId('check-summary').filter({ hasText: 'Every file passes' }).waitFor();
    await page.getByRole('button', { name: 'Load 1 file' }).click();
    const row = page.locator('table[aria-label="Loaded files"] tr[data-file="Brands.parquet"]');
    await row.filter({ hasText: 'loaded' }).waitFor();
    expect(await row.locator('td').allInnerTexts()).toEqual(['Brands.parquet', 'Brands', '2', '2', '0', '0', 'loaded']);
    rmSync(dir, { recursive: true, force: true });
    // A CSV file saved in Windows-1252 is named as such, not read with its odd bytes turned into "�".
    await page.setInputFiles('input[name="files"]', [
      {
        name: 'Brands.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('brandId,code,description\nBR-LAT,LAT,Caf\xe9\n', 'latin1'),
      },
    ]);
    await page
      .locator('.mapping[data-file="Brands.csv"]')
      .getByRole('list', { name: 'Problems of Brands.csv' })
      .filter({ hasText: /is not UTF-8 text \(row 2 holds byte 0xE9, "é" in Windows-1252\)/ })
      .waitFor();
    // Told once: the check below refuses the file for it without telling it again.
    await page
      .locator('table[aria-label="Files checked"] tr[data-file="Brands.csv"]')
      .filter({ hasText: /Would be refused/ })
      .waitFor();
    expect(
      await page.locator('table[aria-label="Files checked"] tr[data-file="Brands.csv"]').innerText(),
    ).not.toContain('is not UTF-8');
    expect(problems).toEqual([]);
    await page.close();
  });

  const exportTitle =
    "loads a retailer's spreadsheet export through the mapping options, and downloads every error of a file as CSV";
  it(exportTitle, async () => {
    const { page, problems } = await openScreen('Load', 1280, 1600, /status of 400/);
    // The committed export, its days moved into the sample's year.
    const exported = readFileSync(join(ROOT, 'test', 'fixtures', 'csv', 'export', 'Sales-export.csv'), 'utf8').replace(
      /2010/g,
      '2025',
    );
    await page.setInputFiles('input[name="files"]', [
      { name: 'Sales-export.csv', mimeType: 'text/csv', buffer: Buffer.from(exported) },
    ]);
    const file = page.locator('.mapping[data-file="Sales-export.csv"]');
    await file.getByLabel('What Sales-export.csv holds').waitFor();
    // Its name and its columns' own names tell nothing, so what it holds and where its columns go are guessed from
    // the headers, marked as guesses: one row per sales line, Quantity the quantity sold, Store the sale's location.
    await expect.poll(() => file.getByLabel('What Sales-export.csv holds').inputValue()).toBe('Sales.salesLines');
    await file.getByTestId('level-guess').filter({ hasText: 'guessed from its columns' }).waitFor();
    await expect.poll(() => file.getByLabel('Column Quantity loads into').inputValue()).toBe('quantitySold');
    for (const [header, field] of [
      ['Store', 'Sales.locationId'],
      ['VAT', 'vatPercentage'],
      ['Currency', 'Sales.currencyCode'],
      ['StockCode', 'skuId'],
    ]) {
      expect(await file.getByLabel(`Column ${header} loads into`).inputValue(), header).toBe(field);
      expect(await file.locator(`tr[data-column="${header}"] .guess`).innerText(), header).toBe('guessed');
    }
    expect(await file.getByLabel('Column Description loads into').inputValue()).toBe('');
    await file.getByLabel('What Sales-export.csv holds').selectOption('Sales.salesLines');
    await expect.poll(() => file.getByLabel('What Sales-export.csv holds').inputValue()).toBe('Sales.salesLines');
    const columns: [string, string][] = [
      ['Invoice', 'Sales.salesId'],
      ['Line ID', 'salesLineId'],
      ['Line', 'lineNumber'],
      ['StockCode', 'skuId'],
      ['Quantity', 'quantitySold'],
      ['InvoiceDate', 'Sales.salesDateTime'],
      ['Amount', 'salesAmountInclVat'],
      ['VAT', 'vatPercentage'],
      ['Store', 'Sales.locationId'],
      ['Web', 'online'],
      ['Currency', 'Sales.currencyCode'],
    ];
    for (const [header, field] of columns) {
      await file.getByLabel(`Column ${header} loads into`).selectOption(field);
      await expect.poll(() => file.getByLabel(`Column ${header} loads into`).inputValue()).toBe(field);
    }
    // One column into two fields: the invoice number is the sale's id and its code.
    await file.getByLabel('Column Invoice also loads into').selectOption('Sales.code');
    await file.locator('tr[data-column="Invoice"] .mapping__also').filter({ hasText: 'and code' }).waitFor();
    // The fields no column gives are filled by their default, and the screen says from what.
    expect(await file.locator('tr[data-derived]').allInnerTexts()).toEqual([
      "no column\toriginalSalesAmountInclVat: filled from salesAmountInclVat\tthe specification's default",
      "no column\tquantityTransferred: filled from quantitySold\tthe specification's default",
      "no column\tquantityCancelled: set to 0\tthe specification's default",
    ]);
    expect(await file.locator('tr[data-column="Description"]').innerText()).toContain('not loaded: no field takes it');
    // Day-first dates are no ISO 8601: refused until the file's date format is set.
    const summary = page.getByTestId('check-summary');
    await summary.filter({ hasText: '1 of 1 batch would be refused' }).waitFor();
    await file.getByLabel('Date format of Sales-export.csv').fill('DD/MM/YYYY HH:mm');
    await file.getByLabel('Date format of Sales-export.csv').press('Enter');
    const firstRows = file.getByRole('table', { name: 'First rows of Sales-export.csv as they will be loaded' });
    await firstRows.locator('tr[data-row="2"]').filter({ hasText: '2025-12-01T08:26:00Z' }).waitFor();
    // One sale's lines give two times: told once, until the first line's is taken.
    const checked = page.locator('table[aria-label="Files checked"] tr[data-file="Sales-export.csv"]');
    await checked
      .filter({ hasText: /salesDateTime differs between the rows of sale "536367": "2025-12-01T08:34:00Z" in row 5/ })
      .waitFor();
    expect(await checked.locator('.load__problems li').count()).toBe(1);
    await file.getByLabel('Repeated fields of Sales-export.csv').selectOption('first');
    await summary.filter({ hasText: 'Every file passes: 4 records to load.' }).waitFor();
    await checked
      .getByRole('list', { name: 'Warnings of Sales-export.csv' })
      .filter({ hasText: '1 sale has fields' })
      .waitFor();
    // The decimal mark is the file's to say: a dot makes every amount a bad cell, as the delimiter told it is not.
    await file.getByLabel('Decimal mark of Sales-export.csv').selectOption('dot');
    await expect
      .poll(() => firstRows.locator('td.cell--bad').allInnerTexts())
      .toEqual(['15,30', '20,34', '-3,70', '54,08', '12,60', '12,75']);
    await file.getByLabel('Decimal mark of Sales-export.csv').selectOption('');
    await expect.poll(() => firstRows.locator('td.cell--bad').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'load-export-mapping.png'), fullPage: true });

    // The mapping as set, saved as the file the command line loads the same export with.
    const [mappingFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Save mapping file' }).click(),
    ]);
    const saved = JSON.parse(readFileSync((await mappingFile.path())!, 'utf8'));
    expect(saved['Sales-export.csv']).toEqual({
      level: 'Sales.salesLines',
      dateFormat: 'DD/MM/YYYY HH:mm',
      repeatedSaleFields: 'first',
      columns: {
        ...Object.fromEntries(columns),
        Invoice: ['Sales.salesId', 'Sales.code'],
        Description: null,
      },
    });
    const exportDir = join(dir, 'export');
    mkdirSync(exportDir, { recursive: true });
    writeFileSync(join(exportDir, 'Sales-export.csv'), exported);
    writeFileSync(join(exportDir, 'mapping.json'), JSON.stringify(saved));
    const cli = execFileSync(process.execPath, [
      BIN,
      'load',
      '-q',
      '-w',
      join(dir, 'cli-export', 'ws'),
      '--map',
      join(exportDir, 'mapping.json'),
      join(exportDir, 'Sales-export.csv'),
    ]).toString();
    expect(cli).toMatch(/4 records from 1 of 1 file in/);

    await page.getByRole('button', { name: 'Load 1 file' }).click();
    const loaded = page.locator('table[aria-label="Loaded files"] tr[data-file="Sales-export.csv"]');
    await loaded.waitFor();
    expect((await loaded.locator('td').allInnerTexts()).slice(0, 4)).toEqual(['Sales-export.csv', 'Sales', '4', '4']);
    // The outcome tells each warning in words, not only their count.
    expect(
      (await loaded.getByRole('list', { name: 'Warnings of Sales-export.csv' }).locator('li').allInnerTexts()).map(
        (w) => w.slice(0, 50),
      ),
    ).toEqual([
      'Sales-export.csv, column "Description": is not loa',
      'Sales-export.csv: no column gives originalSalesAmo',
      'Sales-export.csv: no column gives quantityTransfer',
      'Sales-export.csv: no column gives quantityCancelle',
      'Sales-export.csv: 1 sale has fields that differ be',
    ]);
    expect(await loaded.locator('td').last().innerText()).toMatch(/^5 warnings/);

    // A file refused for 1,200 problems lists the first 1,000; its download holds every one.
    const header = 'salesId,salesDateTime,currencyCode,locationId,salesLineId,skuId,lineNumber,salesAmountInclVat,';
    const rows = Array.from(
      { length: 1200 },
      (_, i) => `V${i},2025-12-01T10:00:00Z,LOCAL,ST-001,V${i}-1,K,1,5,121,no,1`,
    );
    await page.setInputFiles('input[name="files"]', [
      {
        name: 'Sales-vat.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from([`${header}vatPercentage,online,quantitySold`, ...rows].join('\n')),
      },
    ]);
    await summary.filter({ hasText: '1 of 1 batch would be refused' }).waitFor();
    await page.getByRole('radio', { name: 'each dataset on its own' }).check();
    await page.getByRole('button', { name: 'Load 1 file' }).click();
    const refused = page.locator('table[aria-label="Loaded files"] tr[data-file="Sales-vat.csv"]');
    await refused.filter({ hasText: '… and 200 more' }).waitFor();
    const [errorsFile] = await Promise.all([
      page.waitForEvent('download'),
      refused.getByRole('button', { name: 'Download errors (CSV)' }).click(),
    ]);
    expect(errorsFile.suggestedFilename()).toBe('Sales-vat-errors.csv');
    const lines = readFileSync((await errorsFile.path())!, 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(1201);
    expect(lines[0]).toBe('file,row,column,path,recordId,message');
    expect(lines[1200]).toBe(
      'Sales-vat.csv,1201,vatPercentage,/sales/1199/salesLines/0/vatPercentage,V1199,is 121; must be at most 100',
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it('fits every screen into 1,024 × 768: no page scrolls sideways, whatever it shows', async () => {
    // A kept run and a kept sweep to show, whichever tests ran before.
    await admin('POST', 'backtests', { from: '2025-05-05', to: '2025-05-18' });
    let job = await admin('POST', 'sweeps/jobs', {
      from: '2025-05-05',
      to: '2025-05-18',
      vary: [{ setting: 'redistribution.tripCost', values: [20] }],
    });
    while (job.status === 'running') {
      await new Promise((r) => setTimeout(r, 200));
      job = await admin('GET', `sweeps/jobs/${job.jobId}`);
    }
    const { page, problems } = await openScreen('Workspace', 1024, 768);
    await page.locator('table[aria-label="Datasets"]').waitFor();
    /** How far the page reaches beyond the window's width: nothing, on every screen. */
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const screens: [string, () => Promise<unknown>][] = [
      ['Workspace', () => page.locator('li.finding').first().waitFor()],
      ['Runs', () => page.locator('table[aria-label="Kept runs"] tbody tr').first().waitFor()],
      ['Settings', () => page.locator('.settings-form').waitFor()],
      ['Compare', () => page.locator('table[aria-label="KPIs of both runs"]').waitFor()],
      ['Sweep', () => page.locator('table[aria-label="Kept sweeps"]').waitFor()],
      ['Transfers', () => page.getByTestId('transfer-count').filter({ hasText: /lines/ }).waitFor()],
      ['Integration', () => page.getByTestId('curl').waitFor()],
      ['Load', () => page.locator('input[name="files"]').waitFor()],
    ];
    for (const [tab, shown] of screens) {
      await page.getByRole('tab', { name: tab }).click();
      await shown();
      expect(await overflow(), tab).toBeLessThanOrEqual(0);
    }
    // With their fullest views open: a run with its breakdown by style, a sweep, a CSV file's mapping.
    await page.getByRole('tab', { name: 'Runs' }).click();
    await page.locator('table[aria-label="Kept runs"] tbody tr a').first().click();
    await page.locator('table[aria-label^="KPIs by"] tbody tr').first().waitFor();
    await page.selectOption('select[name="level"]', 'style');
    await page.locator('table[aria-label="KPIs by style"] tbody tr').first().waitFor();
    expect(await overflow(), 'a run by style').toBeLessThanOrEqual(0);
    await page.getByRole('tab', { name: 'Sweep' }).click();
    await page.locator('table[aria-label="Kept sweeps"] tbody tr a').first().click();
    await page.getByRole('table', { name: 'Sweep points' }).waitFor();
    expect(await overflow(), 'a sweep').toBeLessThanOrEqual(0);
    expect(problems).toEqual([]);
    await page.getByRole('tab', { name: 'Load' }).click();
    await page.setInputFiles('input[name="files"]', [
      {
        name: 'Sales-export.csv',
        mimeType: 'text/csv',
        buffer: readFileSync(join(ROOT, 'test', 'fixtures', 'csv', 'export', 'Sales-export.csv')),
      },
    ]);
    await page.locator('.mapping[data-file="Sales-export.csv"]').waitFor();
    expect(await overflow(), 'a CSV mapping').toBeLessThanOrEqual(0);
    // The check before loading refuses the export's day-first dates (a 400) until its date format is set; that is
    // the only error the browser may report.
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    await page.close();
  });

  it('opens on the demo with its backtest run: npm run demo, started twice', async () => {
    // Beside the browser mode's home folder, not in it: its workspace list is another test's.
    const demoDir = join(mkdtempSync(join(tmpdir(), 'wb-e2e-demo-')), 'ws');
    /** `workbench demo` until it prints its address; the process and what it printed. */
    const start = async () => {
      const proc = spawn(process.execPath, [BIN, 'demo', '-w', demoDir, '--port', '0'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      proc.stdout!.on('data', (d) => (out += d));
      proc.stderr!.on('data', (d) => (out += d));
      await expect.poll(() => out, { timeout: 120_000 }).toMatch(/listening on /);
      const stop = () => {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        return exited;
      };
      return { out, stop };
    };
    const first = await start();
    try {
      expect(first.out).toMatch(/^loaded the demo: 28,756 records$/m);
      const runId = /^backtest (bt-\S+) over 2024-01-01 … 2025-12-30$/m.exec(first.out)![1];
      const address = /^open (\S+)$/m.exec(first.out)![1];
      expect(address).toContain(`&view=${encodeURIComponent(`/backtest/${runId}`)}`);
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(address);
      await page.locator('[data-kpi="fillRate"]').waitFor();
      expect(decodeURIComponent(new URL(page.url()).hash)).toBe(`#/backtest/${runId}`);
      expect(await page.locator('.hint').first().innerText()).toMatch(
        new RegExp(`^Run ${runId}, 2024-01-01 … 2025-12-30, scenario default`),
      );
      await page.close();
    } finally {
      await first.stop();
    }
    // Started again, it opens on the same workspace and run, loading and running nothing.
    const again = await start();
    await again.stop();
    expect(again.out).not.toMatch(/loaded the demo|^backtest /m);
    expect(again.out).toMatch(/&view=%2Fbacktest%2Fbt-/);
    rmSync(dirname(demoDir), { recursive: true, force: true });
  }, 240_000);

  it('says how to connect when opened without its session key', async () => {
    const page = await newPage();
    await page.goto(url.split('#')[0]);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toMatch(/Not connected/);
    await page.close();
  });
  it('creates a workspace by name, moves to it and back, on the same address', async () => {
    // While the server moves to the other workspace, the page's calls meet a closed port for a moment (or a
    // connection closed under them): the browser reports those itself.
    const { page, problems } = await openScreen(
      'Workspace',
      1280,
      900,
      /ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE|ERR_CONNECTION_RESET|ERR_SOCKET_NOT_CONNECTED/,
    );
    await page.getByTestId('current-workspace').waitFor();
    expect(await page.getByTestId('current-workspace').innerText()).toContain('ws');
    // What the workspace holds before leaving it (earlier tests load into it too): the same on coming back.
    await page.locator('tr[data-dataset="Sales"]').waitFor();
    const sales = await page.locator('tr[data-dataset="Sales"] td').nth(1).innerText();
    expect(sales).toMatch(/^\d{1,3}(,\d{3})+$/);
    await page.locator('input[name="workspace-name"]').fill('../outside');
    await page.getByRole('button', { name: 'Create and open' }).click();
    expect(await page.getByRole('alert').innerText()).toMatch(/A workspace name is 1 to 80 letters/);

    // A period typed into the Backtest form belongs to this workspace's data.
    await page.getByRole('tab', { name: 'Backtest' }).click();
    await page.fill('input[name="from"]', '2025-01-06');
    await page.getByRole('tab', { name: 'Workspace' }).click();
    await page.locator('input[name="workspace-name"]').fill('e2e-spring');
    await page.getByRole('button', { name: 'Create and open' }).click();
    await page.getByTestId('current-workspace').filter({ hasText: 'e2e-spring' }).waitFor();
    // An empty workspace says what to do with it, with the ways in.
    const firstRun = page.getByTestId('first-run');
    await firstRun.getByText('This workspace holds no data yet').waitFor();
    expect(await firstRun.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
      '#/load',
      '#/integration',
    ]);
    await page.screenshot({ path: join(SHOTS, 'workspaces.png') });
    // Transfers with nothing to show say what brings proposals, and where the data comes from.
    await page.getByRole('tab', { name: 'Transfers' }).click();
    await page
      .getByTestId('no-proposals')
      .filter({ hasText: /No proposals yet\. Run recommendations runs/ })
      .waitFor();
    await page.getByRole('tab', { name: 'Workspace' }).click();
    // The demo at a click, rather than a command to type: loaded into this empty workspace.
    await firstRun.getByRole('button', { name: 'Load the demo' }).click();
    await expect.poll(() => page.locator('tr[data-dataset="Sales"] td').nth(1).innerText()).toBe('10,418');
    expect(await page.getByTestId('first-run').count()).toBe(0);
    await page.getByRole('tab', { name: 'Backtest' }).click();
    await page.locator('input[name="from"]').waitFor();
    expect(await page.locator('input[name="from"]').inputValue()).not.toBe('2025-01-06');
    await page.getByRole('tab', { name: 'Workspace' }).click();

    await page.locator('tr[data-workspace="ws"]').getByRole('button', { name: 'Open' }).click();
    await page
      .getByTestId('current-workspace')
      .filter({ hasText: /\bws\b/ })
      .waitFor();
    await page.locator('tr[data-dataset="Sales"]').waitFor();
    expect(await page.locator('tr[data-dataset="Sales"] td').nth(1).innerText()).toBe(sales);
    expect(
      await page.locator('tr[data-workspace]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-workspace'))),
    ).toEqual(['ws', 'e2e-spring']);
    expect(problems).toEqual([]);
    await page.close();
  });
});
