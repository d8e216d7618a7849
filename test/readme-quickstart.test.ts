/**
 * The README's quickstart for an integrator, run with bash exactly as printed: in a folder of its own where
 * `npx workbench` is this project's command, against a server on a free port (the block reads PORT, 8080 unless set).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'wb-quickstart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The shell block the README marks as its quickstart. */
function quickstart(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const m = /<!-- quickstart:[^>]*-->\n```sh\n([\s\S]*?)\n```/.exec(readme);
  expect(m, 'the README marks its quickstart block').not.toBeNull();
  return m![1];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe("the README's quickstart", () => {
  it('starts the server, gets a token, posts a small feed and reads the transfers it approved', async () => {
    mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(join(ROOT, 'bin', 'workbench.mjs'), join(dir, 'node_modules', '.bin', 'workbench'));
    const port = await freePort();
    // Its own process group: whatever the block leaves running is stopped with it.
    const shell = spawn('bash', ['-c', quickstart()], {
      cwd: dir,
      env: { ...process.env, PORT: String(port) },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    shell.stdout.on('data', (d) => (out += d));
    shell.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((r) => shell.once('exit', r));
    try {
      process.kill(-shell.pid!, 'SIGKILL');
    } catch {
      // The group ended with the block.
    }
    expect(code, `${out}\n${err}`).toBe(0);
    expect(out).toContain(`listening on http://127.0.0.1:${port}`);
    const lines = out.trim().split('\n');
    const transfers = JSON.parse(lines[lines.length - 1]);
    expect(transfers.transfers).toEqual([
      expect.objectContaining({
        fromLocationId: 'WH-1',
        toLocationId: 'ST-1',
        skuId: 'TEE-M',
        transferType: 'Replenishment',
      }),
    ]);
    expect(transfers.transfers[0].quantity).toBeGreaterThan(0);
    const run = JSON.parse(lines[lines.length - 2]);
    expect(run.run.autoApproved.approved).toBe(1);
  }, 120_000);
});
