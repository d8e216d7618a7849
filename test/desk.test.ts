/**
 * The app's desk in browser mode: workspace switches and the local API, one at a time, whatever the page does
 * meanwhile (closes, asks twice, starts the API during a switch).
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWeb, type WebServer } from '../engine/server/web.js';
import { Workbench } from '../engine/service/workbench.js';
import { useTempDirs } from './fixtures.js';

const tempDir = useTempDirs('wb-desk-');
let web: WebServer | undefined;
afterEach(async () => {
  await web?.stop();
  web = undefined;
});

async function serveHome(home: string, workspace = 'a'): Promise<WebServer> {
  const ui = join(tempDir(), 'ui');
  mkdirSync(ui);
  web = await startWeb({ workspace: join(home, workspace), home, port: 0, uiRoot: ui });
  return web;
}

function caller(w: WebServer) {
  const headers = {
    authorization: `Bearer ${w.desk.sessionToken}`,
    'x-tenant': 'DEMO',
    'content-type': 'application/json',
  };
  return async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const r = await fetch(`${w.url}/_workbench/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json().catch(() => undefined)) as any };
  };
}

describe('the desk', () => {
  it('moves to the workspace a page asked for even when the page closed before the answer', async () => {
    const home = tempDir();
    await (await Workbench.open(join(home, 'b'))).close();
    const w = await serveHome(home);
    const body = JSON.stringify({ name: 'b' });
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(new URL(w.url).port), '127.0.0.1', () => {
        socket.write(
          'POST /_workbench/workspaces/open HTTP/1.1\r\nHost: x\r\n' +
            `Authorization: Bearer ${w.desk.sessionToken}\r\nX-Tenant: DEMO\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 1);
      });
    });
    await expect
      .poll(async () => (await caller(w)('GET', 'workspaces').catch(() => undefined))?.body?.current?.name)
      .toBe('b');
    // Nothing is left waiting: the next switch goes ahead, and stopping closes both workspaces.
    expect((await caller(w)('POST', 'workspaces/open', { name: 'a' })).status).toBe(200);
    await w.desk.ready();
    await w.stop();
    web = undefined;
    for (const name of ['a', 'b']) await (await Workbench.open(join(home, name))).close();
  });

  const oneApiTitle =
    'starts one local API however often it is asked at once, ' +
    'and a start asked during a switch serves the new workspace';
  it(oneApiTitle, async () => {
    const home = tempDir();
    await (await Workbench.open(join(home, 'b'))).close();
    const w = await serveHome(home);
    const call = caller(w);
    const starts = await Promise.all([
      call('POST', 'listener/start', { port: 0 }),
      call('POST', 'listener/start', { port: 0 }),
    ]);
    expect(starts.map((s) => s.status).sort()).toEqual([200, 409]);
    const url = starts.find((s) => s.status === 200)!.body.url as string;
    expect((await call('POST', 'listener/stop', {})).body.listening).toBe(false);
    await expect(fetch(`${url}/openapi.json`)).rejects.toThrow();

    // Asked right after a switch: it waits for the switch and serves the workspace the screens moved to.
    const switched = call('POST', 'workspaces/open', { name: 'b' });
    await new Promise((r) => setTimeout(r, 20));
    const started = fetch(`${w.url}/_workbench/listener/start`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${w.desk.sessionToken}`,
        'x-tenant': 'DEMO',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ port: 0 }),
    }).catch(() => undefined);
    expect((await switched).status).toBe(200);
    await started;
    await w.desk.ready();
    expect(w.desk.workbench.dir).toBe(join(home, 'b'));
    const status = w.desk.listener();
    if (status.listening) {
      // Whatever the page heard, an API that listens writes to the workspace open now.
      const token = (await (
        await fetch(`${status.url}/Token`, {
          method: 'POST',
          headers: { 'x-tenant': 'DEMO', 'content-type': 'application/json' },
          body: JSON.stringify({
            grant_type: 'client_credentials',
            client_id: status.clientId,
            client_secret: status.clientSecret,
          }),
        })
      ).json()) as { access_token: string };
      const posted = await fetch(`${status.url}/Brands`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token.access_token}`,
          'x-tenant': 'DEMO',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ brands: [{ brandId: 'BR-B', code: 'b' }] }),
      });
      expect(posted.status).toBe(200);
      expect(await w.desk.workbench.read('Brands', ['BR-B'])).toBeDefined();
    }
  });

  it('names each workspace once by its real path when the home folder is reached through a link', async () => {
    const real = tempDir();
    const link = join(tempDir(), 'link');
    symlinkSync(real, link);
    const w = await serveHome(link, 'first');
    const call = caller(w);
    const created = await call('POST', 'workspaces', { name: 'second' });
    expect(created.body).toEqual({ name: 'second', path: join(real, 'second') });
    await w.desk.ready();
    const view = (await call('GET', 'workspaces')).body;
    expect(view.current.path).toBe(join(real, 'second'));
    expect(view.workspaces.map((x: { path: string }) => x.path).sort()).toEqual([
      join(real, 'first'),
      join(real, 'second'),
    ]);
    expect((await call('POST', 'workspaces/open', { path: join(link, 'second') })).status).toBe(409);
  });
});
