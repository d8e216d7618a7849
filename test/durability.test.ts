/**
 * Durability: `workbench serve` killed with SIGKILL while clients post batches (and now and then while it starts),
 * then restarted on the same workspace. A 200 is a promise: every batch answered 200 must be stored whole, field by
 * field, after any kill; a batch cut off by the kill is stored whole or not at all; a refused batch leaves nothing;
 * a split full load cut off before its last call deletes nothing, and its acknowledged calls survive to be
 * completed. The last round stops the server cleanly (SIGTERM) in the middle of the writes, with the same promises.
 *
 * Every kill comes at a state, never after a time, so the test does the same work on a fast machine and a busy
 * one: a round kills once its seeded number of batches has been answered, at the moment the next batch's body has
 * been written to the server, so that batch (and whatever the other clients have in flight) is cut off.
 * DURABILITY_SEED=N repeats a run's kill moments and batch mix.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Workbench } from '../engine/service/workbench.js';
import { SERVER_FILE } from '../engine/server/serve.js';
import type { JsonRecord } from '../engine/ingest/validate.js';
import { Random } from '../samples/generator/rng.js';
import { location } from './fixtures.js';
import { BATCH_DATASETS, keyText, markedBatch, type Batch } from './ingest-batches.js';
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

/** Where a batch got to: its body being written, written and awaiting its answer, answered, or cut off. */
type Stage = 'sending' | 'in flight' | 'answered' | 'cut off';
interface Sent extends Batch {
  stage: Stage;
  status?: number;
}

const locationIds = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `FL-${String(from + i).padStart(2, '0')}`);

/**
 * A round's stop: once `quota` batches have been answered in it, `stop` is called at the moment the next batch's
 * body has been written (from inside that moment, so no answer can come between).
 */
class Trigger {
  private answers = 0;
  private fired = false;
  readonly cutOff: Sent[] = [];
  constructor(
    private readonly quota: number,
    private readonly stop: () => void,
  ) {}

  answered(): void {
    this.answers++;
  }

  /** A batch's body is with the server. Answers whether this is the moment the server was stopped. */
  written(batch: Sent): void {
    if (this.fired || this.answers < this.quota) return;
    this.fired = true;
    this.cutOff.push(batch);
    this.stop();
  }
}

/** POSTs a body and calls `written` once it has been handed to the server, before any answer can come. */
function post(
  url: string,
  path: string,
  token: string,
  body: string,
  written: () => void,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'x-tenant': CREDENTIALS.tenant,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body, written);
  });
}

/** Posts batches until the server is stopped; records every batch and what became of it. */
async function client(
  server: ServeProcess,
  random: Random,
  marker: string,
  sent: Sent[],
  trigger: Trigger,
  failures: string[],
): Promise<void> {
  try {
    // A kill may cut off the token's request too.
    const token = await apiClient(server.url, CREDENTIALS).token();
    for (let n = 0; ; n++) {
      const dataset = random.pick(BATCH_DATASETS);
      // Mostly ordinary batches; some large enough that the kill may meet them mid-commit or mid-checkpoint.
      const size = random.chance(0.15) ? random.int(1000, 3000) : random.int(20, 300);
      const flaw = random.chance(0.1) ? random.pick(['broken', 'truncated'] as const) : undefined;
      const batch: Sent = { ...markedBatch(dataset, `${marker}n${n}`, size, flaw), stage: 'sending' };
      sent.push(batch);
      try {
        const res = await post(server.url, `/${dataset}`, token, batch.body, () => {
          batch.stage = 'in flight';
          trigger.written(batch);
        });
        batch.stage = 'answered';
        batch.status = res.status;
        trigger.answered();
        if (res.status !== batch.expected)
          failures.push(
            `${batch.marker} (${dataset}, ${size} records${flaw ? `, ${flaw}` : ''}): ` +
              `${res.status} ${res.text.slice(0, 300)}`,
          );
      } catch (e) {
        batch.stage = 'cut off';
        throw e;
      }
    }
  } catch (e) {
    if (!server.proc.killed) failures.push(`${marker}: ${(e as Error).message} ${String((e as Error).cause ?? '')}`);
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

/**
 * Starts the server and kills it before it serves, at a seeded one of two moments: at once (Node still loading the
 * code), or at the first change the server makes in the workspace's folder (opening the database, replaying its
 * log) — or, where it makes none before it listens, when it listens.
 */
async function killWhileStarting(random: Random): Promise<string> {
  const moment = random.pick(['at once', 'at its first write'] as const);
  mkdirSync(workspace, { recursive: true });
  // Watched from the same tick as the spawn: the new process cannot touch the workspace before it is watched.
  const starting = launchServe(workspace, CREDENTIALS);
  const watcher = watch(workspace);
  const changed = new Promise((resolve) => watcher.once('change', resolve));
  if (moment === 'at its first write') await Promise.race([changed, starting.listening.catch(() => undefined)]);
  watcher.close();
  await starting.stop('SIGKILL');
  return moment;
}

describe('durability under SIGKILL', () => {
  it('keeps every acknowledged batch whole and never half-applies one', { timeout: 600_000 }, async () => {
    console.log(`durability: seed ${SEED} (DURABILITY_SEED=${SEED} repeats the kill moments and batch mix)`);
    const sent: Sent[] = [];
    const failures: string[] = [];
    const startupKills: string[] = [];
    const triggers: Trigger[] = [];
    let splitAcknowledged = false;

    // Refused whole, whichever the flaw: nothing of either may be stored.
    const refusedOnPurpose: Sent[] = [];

    for (let round = 0; round < ROUNDS; round++) {
      const random = new Random(SEED, `round-${round}`);
      if (round % 2 === 0 && round > 0) startupKills.push(await killWhileStarting(random));
      const server = await spawnServe(workspace, CREDENTIALS);
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
          .filter((b) => b.stage !== 'answered' && b.expected === 200)
          .reduce((a, b) => a + b.records.length, 0);
        expect(live.get(dataset), `${dataset} after restart ${round}`).toBeGreaterThanOrEqual(acked);
        expect(live.get(dataset), `${dataset} after restart ${round}`).toBeLessThanOrEqual(acked + maybe);
      }

      if (round === 0) {
        const res = await admin.call('POST', '/Locations', {
          locations: locationIds(0, BASE_LOCATIONS).map((id) => location(id)),
        });
        expect(res.status).toBe(200);
        for (const flaw of ['broken', 'truncated'] as const) {
          const batch: Sent = { ...markedBatch('Sales', `refused-${flaw}`, 50, flaw), stage: 'sending' };
          const refused = await admin.call('POST', '/Sales', batch.body, { 'content-type': 'application/json' });
          expect(refused.status, flaw).toBe(400);
          Object.assign(batch, { stage: 'answered', status: refused.status });
          refusedOnPurpose.push(batch);
          sent.push(batch);
        }
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

      // A clean stop in the last round, in the middle of the writes: what was answered stays, and the server says
      // goodbye. A kill in every other.
      const exited = new Promise<string>((resolve) =>
        server.proc.once('exit', (code, signal) => resolve(signal ?? String(code))),
      );
      const trigger = new Trigger(random.int(2, 12), () => server.proc.kill(last ? 'SIGTERM' : 'SIGKILL'));
      triggers.push(trigger);
      const clients = Array.from({ length: CLIENTS }, (_, c) =>
        client(server, new Random(SEED, `round-${round}-client-${c}`), `r${round}c${c}`, sent, trigger, failures),
      );
      // Clients end only when the server stops; ended before that, they failed, and the round ends with them.
      void Promise.all(clients).then(() => {
        if (!server.proc.killed) {
          failures.push(`round ${round}: every client ended before the server was stopped`);
          server.proc.kill('SIGKILL');
        }
      });
      const how = await exited;
      await Promise.all(clients);
      if (last) {
        expect(how).toBe('0');
        expect(existsSync(join(workspace, SERVER_FILE))).toBe(false);
      } else expect(how).toBe('SIGKILL');

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
      /** Per batch: how many of its records are stored, and how many of them equal what was sent, field by field. */
      const found = new Map<Sent, { present: number; same: number }>();
      let duplicated = 0;
      for (const dataset of BATCH_DATASETS) {
        const { byKey, duplicates } = await stored(wb, dataset);
        duplicated += duplicates;
        for (const b of sent.filter((x) => x.dataset === dataset)) {
          let present = 0;
          let same = 0;
          for (const r of b.records) {
            const s = byKey.get(keyText(dataset, r));
            if (!s) continue;
            present++;
            if (isDeepStrictEqual(s, r)) same++;
          }
          found.set(b, { present, same });
        }
      }
      const problems: string[] = [];
      for (const [b, { present, same }] of found) {
        const answer = b.status ? ` ${b.status}` : '';
        const what = `${b.marker} (${b.dataset}, ${b.records.length} records, ${b.stage}${answer})`;
        if (b.status === 200 && same !== b.records.length) problems.push(`${what}: ${same} stored as sent`);
        else if (b.expected === 400 && present) problems.push(`${what}: a refused batch left ${present} records`);
        else if (present && (present !== b.records.length || same !== present))
          problems.push(`${what}: ${present} stored, ${same} as sent: half-applied`);
      }
      expect(problems).toEqual([]);
      expect(duplicated).toBe(0);

      // The refusals sent on purpose were answered 400 and left nothing (checked above with every batch).
      expect(refusedOnPurpose.map((b) => found.get(b)!.present)).toEqual([0, 0]);
      // Every round was stopped at the moment a batch had been written and not answered: that batch was cut off,
      // and it is stored whole or not at all (checked above with every batch).
      const stoppedAt = triggers.flatMap((t) => t.cutOff);
      expect(stoppedAt).toHaveLength(ROUNDS);
      expect(stoppedAt.filter((b) => b.stage === 'cut off').length).toBeGreaterThan(0);
      expect(startupKills).toHaveLength(Math.floor((ROUNDS - 1) / 2));

      // The split full load: the calls acknowledged before the kills were applied by its last call after them.
      const locations = await stored(wb, 'Locations');
      expect([...locations.byKey.keys()].sort()).toEqual([...locationIds(0, 35), ...locationIds(60, 65)].sort());
      expect([...locations.byKey.values()].every((r) => String(r.name).startsWith('v2'))).toBe(true);

      const acknowledged = sent.filter((b) => b.status === 200);
      const cutOff = sent.filter((b) => b.stage !== 'answered');
      const cutOffStored = cutOff.filter((b) => found.get(b)!.present > 0);
      console.log(
        `durability: ${ROUNDS - 1} kills survived, ${startupKills.length} more while starting ` +
          `(${startupKills.join(', ')}), ${acknowledged.length} batches acknowledged ` +
          `(${acknowledged.reduce((a, b) => a + b.records.length, 0)} records) and stored as sent, ` +
          `${sent.filter((b) => b.status === 400).length} bad inputs refused, ` +
          `${cutOff.length} batches cut off by a kill or the stop ` +
          `(${cutOffStored.length} stored whole, ${cutOff.length - cutOffStored.length} absent; ` +
          `${stoppedAt.filter((b) => b.stage === 'cut off').length} of them written just before the kill)`,
      );
    } finally {
      await wb.close();
    }
  });
});
