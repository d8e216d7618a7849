/**
 * Durability: `workbench serve` killed with SIGKILL at seeded random moments while clients post batches (and now and
 * then while it starts), then restarted on the same workspace. A 200 is a promise: every batch answered 200 must be
 * stored whole after any kill; a batch cut off by the kill is stored whole or not at all; a refused batch leaves
 * nothing; a split full load cut off before its last call deletes nothing, and its acknowledged calls survive to be
 * completed. The last round stops the server cleanly (SIGTERM) in the middle of the writes, with the same promises.
 * DURABILITY_SEED=N repeats a run's kill moments and batch mix.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Workbench } from '../engine/service/workbench.js';
import { SERVER_FILE } from '../engine/server/serve.js';
import type { JsonRecord } from '../engine/ingest/validate.js';
import { Random } from '../samples/generator/rng.js';
import { location } from './fixtures.js';
import { BATCH_DATASETS, keyText, markedBatch, rowCount, type Batch } from './ingest-batches.js';
import { apiClient, BIN, launchServe, spawnServe, type ServeProcess } from './serve-process.js';

const SEED = Number(process.env.DURABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const ROUNDS = 7; // the last ends with a clean stop: ROUNDS - 1 kills
const CLIENTS = 4;
const CREDENTIALS = { tenant: 'DUR', clientId: 'durability', clientSecret: 'survives-kill-9' };
/** The round that opens a split full load of Locations; the next one checks it, the last one completes it. */
const SPLIT_ROUND = 2;
const BASE_LOCATIONS = 60;

const root = mkdtempSync(join(tmpdir(), 'wb-durability-'));
const workspace = join(root, 'ws');
const run = promisify(execFile);
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Outcome = 'answered' | 'cut off';
interface Sent extends Batch {
  outcome: Outcome;
  status?: number;
}

const locationIds = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `FL-${String(from + i).padStart(2, '0')}`);

/** Posts batches until the server is stopped; records every batch and what it was answered. */
async function client(
  server: ServeProcess,
  random: Random,
  marker: string,
  sent: Sent[],
  failures: string[],
): Promise<void> {
  // Asks for its token inside the first call, which a kill may cut off too.
  const api = apiClient(server.url, CREDENTIALS);
  for (let n = 0; ; n++) {
    const dataset = random.pick(BATCH_DATASETS);
    // Mostly ordinary batches; some large enough that the kill may meet them mid-commit or mid-checkpoint.
    const size = random.chance(0.15) ? random.int(1000, 3000) : random.int(20, 300);
    const flaw = random.chance(0.1) ? random.pick(['broken', 'truncated'] as const) : undefined;
    const batch: Sent = { ...markedBatch(dataset, `${marker}n${n}`, size, flaw), outcome: 'cut off' };
    sent.push(batch);
    try {
      const res = await api.call('POST', `/${dataset}`, batch.body, { 'content-type': 'application/json' });
      batch.outcome = 'answered';
      batch.status = res.status;
      if (res.status !== batch.expected)
        failures.push(
          `${batch.marker} (${dataset}, ${size} records${flaw ? `, ${flaw}` : ''}): ` +
            `${res.status} ${res.text.slice(0, 300)}`,
        );
    } catch (e) {
      if (!server.proc.killed)
        failures.push(`${batch.marker}: ${(e as Error).message} ${String((e as Error).cause ?? '')}`);
      return;
    }
  }
}

/** Every live record of a dataset, by key; a key seen twice is a duplicated record. */
async function stored(wb: Workbench, dataset: string): Promise<{ byKey: Map<string, JsonRecord>; duplicates: number }> {
  const byKey = new Map<string, JsonRecord>();
  let duplicates = 0;
  for (let offset = 0; ; offset += 10_000) {
    const page = await wb.list(dataset, { offset, limit: 10_000 });
    for (const r of page.records) {
      const k = keyText(dataset, r);
      if (byKey.has(k)) duplicates++;
      byKey.set(k, r);
    }
    if (page.records.length < 10_000) break;
  }
  return { byKey, duplicates };
}

describe('durability under SIGKILL', () => {
  it('keeps every acknowledged batch whole and never half-applies one', { timeout: 240_000 }, async () => {
    console.log(`durability: seed ${SEED} (DURABILITY_SEED=${SEED} repeats the kill moments and batch mix)`);
    const sent: Sent[] = [];
    const failures: string[] = [];
    let kills = 0;
    let startupKills = 0;
    let startMs = 1500;
    let splitAcknowledged = false;

    for (let round = 0; round < ROUNDS; round++) {
      const random = new Random(SEED, `round-${round}`);
      if (round % 2 === 0 && round > 0) {
        // Killed while starting: loading the code, opening the workspace, replaying its log, or just listening.
        const starting = launchServe(workspace, CREDENTIALS);
        await sleep(random.int(200, Math.max(300, startMs)));
        await starting.stop('SIGKILL');
        startupKills++;
      }
      const t0 = performance.now();
      const server = await spawnServe(workspace, CREDENTIALS);
      startMs = performance.now() - t0;
      const admin = apiClient(server.url, CREDENTIALS);

      // Straight after a restart the counts lie between what was acknowledged and what was sent.
      const live = new Map<string, number>(
        (await admin.call('GET', '/_workbench/summary')).json.map((s: { dataset: string; live: number }) => [
          s.dataset,
          s.live,
        ]),
      );
      for (const dataset of BATCH_DATASETS) {
        const mine = sent.filter((b) => b.dataset === dataset);
        const acked = mine.filter((b) => b.status === 200).reduce((a, b) => a + b.records.length, 0);
        const maybe = mine
          .filter((b) => b.outcome === 'cut off' && b.expected === 200)
          .reduce((a, b) => a + b.records.length, 0);
        expect(live.get(dataset), `${dataset} after restart ${round}`).toBeGreaterThanOrEqual(acked);
        expect(live.get(dataset), `${dataset} after restart ${round}`).toBeLessThanOrEqual(acked + maybe);
      }

      if (round === 0) {
        const res = await admin.call('POST', '/Locations', {
          locations: locationIds(0, BASE_LOCATIONS).map((id) => location(id)),
        });
        expect(res.status).toBe(200);
      }
      if (round === SPLIT_ROUND) {
        // Two calls of a full load answered 200, then the kill comes before its last call.
        const first = await admin.call('POST', '/Locations?fullLoad=true&moreRecordsAvailable=true', {
          locations: locationIds(0, 20).map((id) => location(id, { name: `v2 ${id}` })),
        });
        const second = await admin.call('POST', '/Locations?fullLoad=true&moreRecordsAvailable=true', {
          locations: [...locationIds(20, 30), ...locationIds(60, 65)].map((id) => location(id, { name: `v2 ${id}` })),
        });
        expect([first.status, second.status]).toEqual([200, 200]);
        splitAcknowledged = true;
      }
      if (round === SPLIT_ROUND + 1) {
        // The interrupted load deleted nothing and applied nothing; its acknowledged calls are still kept aside.
        const page = await admin.call('GET', '/_workbench/data/Locations?limit=1000');
        expect(page.json.records.map((r: JsonRecord) => r.locationId)).toEqual(locationIds(0, BASE_LOCATIONS));
        expect(page.json.records.every((r: JsonRecord) => !String(r.name).startsWith('v2'))).toBe(true);
        const summary = (await admin.call('GET', '/_workbench/summary')).json.find(
          (s: { dataset: string }) => s.dataset === 'Locations',
        );
        expect(summary.stagedFullLoad).toMatchObject({ calls: 2, records: 35 });
      }

      const last = round === ROUNDS - 1;
      if (last) {
        // The full load's last call, after the kills: it applies the calls acknowledged before them.
        expect(splitAcknowledged).toBe(true);
        const res = await admin.call('POST', '/Locations?fullLoad=true', {
          locations: locationIds(30, 35).map((id) => location(id, { name: `v2 ${id}` })),
        });
        expect(res.status).toBe(200);
      }

      const clients = Array.from({ length: CLIENTS }, (_, c) =>
        client(server, new Random(SEED, `round-${round}-client-${c}`), `r${round}c${c}`, sent, failures),
      );
      await sleep(random.int(150, 1800));
      if (last) {
        // A clean stop in the middle of the writes: what was answered stays, and the server says goodbye.
        expect(await server.stop('SIGTERM')).toBe('0');
        expect(existsSync(join(workspace, SERVER_FILE))).toBe(false);
      } else {
        await server.stop('SIGKILL');
        kills++;
      }
      await Promise.all(clients);

      if (round === 1) {
        // A killed server leaves its discovery file naming a dead process: log reads the workspace itself.
        expect(JSON.parse(readFileSync(join(workspace, SERVER_FILE), 'utf8')).pid).toBe(server.proc.pid);
        const log = await run(process.execPath, [BIN, 'log', '-w', workspace, '-n', '3', '--json'], {
          encoding: 'utf8',
        });
        expect(
          log.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l).status).length,
        ).toBe(3);
        // Its pid reused by a live process that is no server (here: this test): lint still reads the workspace.
        writeFileSync(
          join(workspace, SERVER_FILE),
          JSON.stringify({
            url: 'http://127.0.0.1:9',
            pid: process.pid,
            tenant: 'X',
            clientId: 'x',
            clientSecret: 'x',
          }),
        );
        const lint = await run(process.execPath, [BIN, 'lint', '-w', workspace], { encoding: 'utf8' });
        expect(lint.stdout).toMatch(/^feed lint at /);
      }
    }
    expect(failures).toEqual([]);

    // The final state, read by the service itself with the server gone.
    const wb = await Workbench.open(workspace);
    try {
      let lost = 0;
      let halfApplied = 0;
      let duplicated = 0;
      let cutOffApplied = 0;
      let cutOffAbsent = 0;
      const problems: string[] = [];
      for (const dataset of BATCH_DATASETS) {
        const { byKey, duplicates } = await stored(wb, dataset);
        duplicated += duplicates;
        for (const b of sent.filter((x) => x.dataset === dataset)) {
          let present = 0;
          let whole = 0;
          for (const r of b.records) {
            const s = byKey.get(keyText(dataset, r));
            if (!s) continue;
            present++;
            if (rowCount(s) === rowCount(r)) whole++;
          }
          if (b.status === 200) lost += b.records.length - whole;
          if (present !== 0 && (present !== b.records.length || whole !== present)) halfApplied++;
          if (b.expected === 400 && present) problems.push(`${b.marker}: a refused batch left ${present} records`);
          if (b.outcome === 'cut off' && b.expected === 200) {
            if (present) cutOffApplied++;
            else cutOffAbsent++;
          }
          if (b.status === 200 && whole !== b.records.length)
            problems.push(
              `${b.marker} (${dataset}): acknowledged ${b.records.length}, ${present} stored, ${whole} whole`,
            );
        }
      }
      // The split full load: the calls acknowledged before the kills were applied by its last call after them.
      const locations = await stored(wb, 'Locations');
      expect([...locations.byKey.keys()].sort()).toEqual([...locationIds(0, 35), ...locationIds(60, 65)].sort());
      expect([...locations.byKey.values()].every((r) => String(r.name).startsWith('v2'))).toBe(true);

      const acknowledged = sent.filter((b) => b.status === 200);
      const refused = sent.filter((b) => b.outcome === 'answered' && b.expected === 400);
      console.log(
        `durability: ${kills + startupKills} kills survived (${startupKills} while starting), ` +
          `${acknowledged.length} batches acknowledged ` +
          `(${acknowledged.reduce((a, b) => a + b.records.length, 0)} records), ` +
          `${refused.length} bad inputs refused, ` +
          `${cutOffApplied + cutOffAbsent} batches cut off by a kill or the stop ` +
          `(${cutOffApplied} stored whole, ${cutOffAbsent} absent), ` +
          `${lost} records lost, ${halfApplied} half-applied, ${duplicated} duplicated`,
      );
      expect(problems).toEqual([]);
      expect({ lost, halfApplied, duplicated }).toEqual({ lost: 0, halfApplied: 0, duplicated: 0 });
      expect(kills).toBe(ROUNDS - 1);
      expect(acknowledged.length).toBeGreaterThan(ROUNDS * CLIENTS);
      expect(refused.length).toBeGreaterThan(0);
    } finally {
      await wb.close();
    }
  });
});
