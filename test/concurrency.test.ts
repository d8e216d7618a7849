/**
 * Concurrency: one `workbench serve`, eight clients posting twenty batches each across endpoints, a split full
 * load of Locations open while they write (and while Locations are upserted beside it), recommendation runs that
 * approve transfers, and a reader paging GET /Recommendations/transfers throughout. Nothing is lost or doubled,
 * every answer is the right one, and nothing deadlocks (the test ends).
 *
 * The paging contract checked: transfers are ordered by confirmation time, then referenceId, and an approval
 * only ever adds transfers after every earlier one; so a reader paging with Offset/Limit sees each transfer at
 * most once, and each complete pass is a prefix of any later one. (A transfer carried out by a client Transfer
 * leaves the list and shifts later pages; resuming with FromConfirmedDateTime avoids that. No client Transfer is
 * sent here.) CONCURRENCY_SEED=N repeats a run's batch mix.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDataset } from '../engine/model/datasets.js';
import { Workbench } from '../engine/service/workbench.js';
import type { JsonRecord } from '../engine/ingest/validate.js';
import { generate, MemorySink } from '../samples/generator/index.js';
import { Random } from '../samples/generator/rng.js';
import { location } from './fixtures.js';
import { BATCH_DATASETS, keyText, markedBatch } from './ingest-batches.js';
import { apiClient, spawnServe, type ServeProcess } from './serve-process.js';

const SEED = Number(process.env.CONCURRENCY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CLIENTS = 8;
const BATCHES = 20;
const RUNS = 5;
const PAGE = 100;
const CREDENTIALS = { tenant: 'CONC', clientId: 'concurrency', clientSecret: 'eight-at-once' };
const DATASETS = [...BATCH_DATASETS, 'Locations'] as const;

const root = mkdtempSync(join(tmpdir(), 'wb-concurrency-'));
let server: ServeProcess;
let generatedLocations: JsonRecord[];
const OBSOLETE = Array.from({ length: 20 }, (_, i) => `OLD-${String(i).padStart(3, '0')}`);
const NEW = Array.from({ length: 40 }, (_, i) => `NEW-${String(i).padStart(3, '0')}`);

beforeAll(async () => {
  // A small realistic retailer, so the engine has something to propose, and locations a full load will drop.
  const sink = new MemorySink();
  generate({ seed: 5, stores: 6, skus: 300, days: 120, start: '2024-01-01' }, sink);
  const wb = await Workbench.open(join(root, 'ws'));
  for (const [name, content] of sink.files) await wb.ingestFile(name, JSON.parse(content));
  await wb.ingest('Locations', { locations: OBSOLETE.map((id) => location(id)) });
  await wb.close();
  generatedLocations = (JSON.parse(sink.files.get('Locations.json')!) as { locations: JsonRecord[] }).locations;
  server = await spawnServe(join(root, 'ws'), CREDENTIALS);
});

afterAll(async () => {
  await server?.stop('SIGTERM');
  rmSync(root, { recursive: true, force: true });
});

type Api = ReturnType<typeof apiClient>;

/** Every live key of a dataset as the admin API pages it, and how many keys came more than once. */
async function storedKeys(api: Api, dataset: string): Promise<{ keys: Set<string>; duplicates: number }> {
  const keys = new Set<string>();
  let duplicates = 0;
  for (let offset = 0; ; offset += 10_000) {
    const page = await api.call('GET', `/_workbench/data/${dataset}?offset=${offset}&limit=10000`);
    expect(page.status).toBe(200);
    for (const r of page.json.records as JsonRecord[]) {
      const k = keyText(dataset, r);
      if (keys.has(k)) duplicates++;
      keys.add(k);
    }
    if (page.json.records.length < 10_000) return { keys, duplicates };
  }
}

/** One complete pass over GET /Recommendations/transfers, page by page. */
async function transferPass(
  api: Api,
  onPage: () => void | Promise<void> = () => {},
): Promise<{ referenceId: string; approvalBatchId: string }[]> {
  const out: { referenceId: string; approvalBatchId: string }[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await api.call('GET', `/Recommendations/transfers?Offset=${offset}&Limit=${PAGE}`);
    await onPage();
    expect(page.status).toBe(200);
    out.push(...page.json.transfers);
    if (!page.json.moreRecordsAvailable) return out;
  }
}

describe('concurrent clients', () => {
  it('lose nothing, double nothing, and page transfers consistently while runs approve', async () => {
    console.log(`concurrency: seed ${SEED} (CONCURRENCY_SEED=${SEED} repeats the batch mix)`);
    const admin = apiClient(server.url, CREDENTIALS);
    const before = new Map<string, Set<string>>();
    for (const d of DATASETS) before.set(d, (await storedKeys(admin, d)).keys);
    const first = await admin.call('POST', '/_workbench/recommendations/run', { autoApprove: true });
    expect(first.status).toBe(200);
    let approved = first.json.autoApproved?.approved ?? 0;
    expect(approved).toBeGreaterThan(0);

    const wrong: string[] = [];
    const acknowledged = new Map<string, string[]>(DATASETS.map((d) => [d, []]));
    let requests = 0;
    let badInputs = 0;
    const check = (what: string, status: number, expected: number, text: string) => {
      requests++;
      if (status !== expected) wrong.push(`${what}: ${status}, expected ${expected}: ${text.slice(0, 300)}`);
    };

    const writer = async (c: number) => {
      const random = new Random(SEED, `client-${c}`);
      const api = apiClient(server.url, CREDENTIALS);
      for (let n = 0; n < BATCHES; n++) {
        const flaw = random.chance(0.1) ? random.pick(['broken', 'truncated'] as const) : undefined;
        const batch = markedBatch(
          BATCH_DATASETS[(c + n) % BATCH_DATASETS.length],
          `c${c}b${n}`,
          random.int(20, 200),
          flaw,
        );
        const res = await api.call('POST', `/${batch.dataset}`, batch.body, { 'content-type': 'application/json' });
        check(`${batch.marker} ${batch.dataset}`, res.status, batch.expected, res.text);
        if (flaw) {
          badInputs++;
          // A broken record is named by its place in the body; the batch is refused whole.
          const pointer =
            flaw === 'broken' ? `/${getDataset(batch.dataset).envelope}/${batch.records.length >> 1}/` : '';
          if (flaw === 'broken' && !res.json?.errors?.every((e: { path: string }) => e.path.startsWith(pointer)))
            wrong.push(`${batch.marker}: errors ${res.text.slice(0, 300)}`);
          if (flaw === 'truncated' && !/malformed-json/.test(res.json?.type ?? ''))
            wrong.push(`${batch.marker}: ${res.text.slice(0, 300)}`);
        } else if (res.status === 200) {
          acknowledged.get(batch.dataset)!.push(...batch.records.map((r) => keyText(batch.dataset, r)));
        }
      }
    };

    // The split full load: every generated location and NEW-*, over five calls; OLD-* is not sent.
    let loadOpen!: () => void;
    const opened = new Promise<void>((r) => (loadOpen = r));
    const upsertedBeside: string[] = [];
    const fullLoad = async () => {
      const api = apiClient(server.url, CREDENTIALS);
      const calls = [
        generatedLocations,
        ...Array.from({ length: 4 }, (_, i) => NEW.slice(i * 10, i * 10 + 10).map((id) => location(id))),
      ];
      for (let i = 0; i < calls.length; i++) {
        const more = i < calls.length - 1;
        const res = await api.call('POST', `/Locations?fullLoad=true&moreRecordsAvailable=${more}`, {
          locations: calls[i],
        });
        check(`full load call ${i + 1}`, res.status, 200, res.text);
        if (i === 0) loadOpen();
        if (more) await sleep(300);
      }
    };
    // Locations upserted while the full load is open are written after it began: they stay.
    const besideTheLoad = async () => {
      await opened;
      const api = apiClient(server.url, CREDENTIALS);
      for (let n = 0; n < 5; n++) {
        const ids = Array.from({ length: 4 }, (_, i) => `LX-${n}-${i}`);
        const res = await api.call('POST', '/Locations', { locations: ids.map((id) => location(id)) });
        check(`Locations beside the load ${n}`, res.status, 200, res.text);
        if (res.status === 200) upsertedBeside.push(...ids);
        await sleep(150);
      }
    };

    // Runs with rising service levels, so each approves more transfers, while everything else goes on.
    let writing = true;
    let runsDone = 0;
    /** Waiters for the end of the next run. */
    let runEnded: (() => void)[] = [];
    const runner = async () => {
      const api = apiClient(server.url, CREDENTIALS);
      for (let k = 0; k < RUNS; k++) {
        await sleep(200);
        const res = await api.call('POST', '/_workbench/recommendations/run', {
          autoApprove: true,
          settings: { defaults: { serviceLevel: 0.8 + 0.04 * k } },
        });
        check(`run ${k}`, res.status, 200, res.text);
        approved += res.json?.autoApproved?.approved ?? 0;
        runsDone++;
        for (const resolve of runEnded) resolve();
        runEnded = [];
      }
    };
    const passes: string[][] = [];
    let passesSpanningRuns = 0;
    // However quick the passes are beside the runs, one of them holds after its first page until a run has
    // approved more: at least one pass spans a run.
    let held = false;
    const holdAcrossARun = async () => {
      if (held || runsDone === RUNS) return;
      held = true;
      await new Promise<void>((resolve) => runEnded.push(resolve));
    };
    const pager = async () => {
      const api = apiClient(server.url, CREDENTIALS);
      while (writing) {
        const runsBefore = runsDone;
        const pass = await transferPass(api, () => {
          requests++;
          return holdAcrossARun();
        });
        if (runsDone > runsBefore) passesSpanningRuns++;
        // Within a pass, each approval batch is one contiguous block:
        // a later approval never lands inside earlier pages.
        const blocks = pass.map((t) => t.approvalBatchId).filter((b, i, all) => i === 0 || all[i - 1] !== b);
        if (new Set(blocks).size !== blocks.length) wrong.push(`a pass split an approval batch: ${blocks.join(' ')}`);
        passes.push(pass.map((t) => t.referenceId));
      }
    };

    const started = performance.now();
    const paging = pager();
    await Promise.all([...Array.from({ length: CLIENTS }, (_, c) => writer(c)), fullLoad(), besideTheLoad(), runner()]);
    writing = false;
    await paging;
    const seconds = (performance.now() - started) / 1000;
    expect(wrong).toEqual([]);

    // Every pass: no transfer twice, and a prefix of every later pass; the last one after all runs: every approval.
    const final = await transferPass(admin);
    let duplicatedTransfers = 0;
    let inconsistentPasses = 0;
    for (const [i, pass] of [...passes, final.map((t) => t.referenceId)].entries()) {
      duplicatedTransfers += pass.length - new Set(pass).size;
      if (i > 0 && passes[i - 1].some((id, j) => pass[j] !== id)) inconsistentPasses++;
    }
    expect(final.length).toBe(approved);

    // Every dataset holds exactly what it held before, plus every acknowledged record, each once.
    let lost = 0;
    let extra = 0;
    let duplicated = 0;
    const expected = new Map(DATASETS.map((d) => [d, new Set([...before.get(d)!, ...acknowledged.get(d)!])]));
    const locations = expected.get('Locations')!;
    for (const id of OBSOLETE) locations.delete(id);
    for (const id of [...NEW, ...upsertedBeside]) locations.add(id);
    for (const d of DATASETS) {
      const { keys, duplicates } = await storedKeys(admin, d);
      const want = expected.get(d)!;
      duplicated += duplicates;
      lost += [...want].filter((k) => !keys.has(k)).length;
      extra += [...keys].filter((k) => !want.has(k)).length;
    }
    const records = [...acknowledged.values()].reduce((a, ks) => a + ks.length, 0);
    console.log(
      `concurrency: ${CLIENTS} clients × ${BATCHES} batches, ${requests} requests in ${seconds.toFixed(1)} s, ` +
        `${records} records acknowledged, ${badInputs} bad inputs refused, ` +
        `split full load of ${NEW.length + generatedLocations.length} locations ` +
        `with ${upsertedBeside.length} upserted beside it, ` +
        `${RUNS + 1} runs approving ${approved} transfers read in ${passes.length} passes ` +
        `(${passesSpanningRuns} spanning a run): ` +
        `${lost} records lost, ${extra} unexpected, ${duplicated} duplicated, ` +
        `${duplicatedTransfers} transfers seen twice, ${inconsistentPasses} inconsistent passes`,
    );
    expect({ lost, extra, duplicated, duplicatedTransfers, inconsistentPasses }).toEqual({
      lost: 0,
      extra: 0,
      duplicated: 0,
      duplicatedTransfers: 0,
      inconsistentPasses: 0,
    });
    expect(passesSpanningRuns).toBeGreaterThan(0);
    expect(upsertedBeside.length).toBe(20);
  });
});
