/**
 * Hostile input over real sockets, where Node's HTTP parser and the framework see a request before any route does:
 * headers it cannot read, methods in lower case, bytes that are not ASCII in the path, request lines over the limit,
 * a missing Host, an Expect it cannot meet, a body in a content coding, look-alike letters in a path, framing that
 * does not match the body. Then a seeded storm of 10,000 such requests against every write endpoint, /Token, /Batch
 * and the admin API. Every error answered is a problem body (type, title, status, detail); none is 5xx; every
 * request is answered before its connection closes, and none is reset; the workspace is unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, RawConnection, type RawAnswer } from './raw-http.js';
import { testServer, type TestServer } from './api-helpers.js';
import { fillForHostileRequests, workspaceState } from './hostile-workspace.js';
import { stormRequests, type StormRequest } from './storm-requests.js';

let t: TestServer;
let token: string;
let host: string;
let before: unknown;

beforeAll(async () => {
  t = await testServer();
  token = await t.token();
  host = new URL(t.url).host;
  await fillForHostileRequests(t);
  // A record whose id is the Kelvin sign: reached by its id, never by k.
  expect((await t.call('POST', '/Colors', { colors: [{ colorId: '\u212A', code: 'KELVIN' }] })).status).toBe(200);
  before = await workspaceState(t, token);
});
afterAll(async () => t?.close());

/** What is wrong with an answer as an error of this API, if anything. */
function problemFault(a: RawAnswer): string | undefined {
  if (a.status < 400) return undefined;
  if (!/^application\/problem\+json\b/.test(a.headers['content-type'] ?? ''))
    return `content type ${a.headers['content-type'] ?? 'none'}`;
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(a.body) as Record<string, unknown>;
  } catch {
    return `a body that is not JSON: ${a.body.slice(0, 100)}`;
  }
  if (typeof p.type !== 'string' || !p.type.startsWith('urn:replenishment-workbench:problem:')) return 'no type';
  if (typeof p.title !== 'string' || p.title === '') return 'no title';
  if (p.status !== a.status) return `status ${String(p.status)} in the body`;
  if (typeof p.detail !== 'string' || p.detail === '') return 'no detail';
  return undefined;
}

const problem = (a: RawAnswer) => JSON.parse(a.body) as { type: string; detail: string; instance?: string };

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;
const auth = () => [`Authorization: Bearer ${token}`, `X-Tenant: ${t.server.info.tenant}`];

/** One request on a connection of its own: its answers until the server closes, none of them faulty. */
async function alone(bytes: string | Buffer, endAfter = false): Promise<RawAnswer[]> {
  const { answers, error } = await exchange(t.url, bytes, { endAfter });
  expect(error, 'the connection was reset').toBeUndefined();
  expect(answers.length, 'no answer before the connection closed').toBeGreaterThan(0);
  for (const a of answers) expect(problemFault(a), `${a.status} ${a.body.slice(0, 200)}`).toBeUndefined();
  return answers;
}

describe('requests the HTTP parser refuses', () => {
  it.each([
    ['a header folded onto a second line', `GET /_workbench/summary HTTP/1.1\r\nHost: x\r\nX-A: a\r\n  b\r\n\r\n`],
    ['a control character in a header name', `GET /Items HTTP/1.1\r\nHost: x\r\nX-A\x01: a\r\n\r\n`],
    ['a method in lower case', `post /Colors HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`],
    ['a method HTTP does not know', `BREW /Colors HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['two Content-Lengths', `POST /Colors HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`],
    [
      'a chunk without its size',
      head(['POST /Colors HTTP/1.1', 'Host: x', 'Content-Type: application/json', 'Transfer-Encoding: chunked']) +
        'zz\r\n{}\r\n0\r\n\r\n',
    ],
  ])('answers %s with a problem, then closes the connection', async (_, bytes) => {
    const answers = await alone(bytes);
    expect(answers).toHaveLength(1);
    expect(answers[0].status).toBe(400);
    expect(answers[0].headers.connection).toBe('close');
  });

  it('names raw bytes that are not ASCII in a path, and says to percent-encode them', async () => {
    const [a] = await alone(
      Buffer.concat([Buffer.from('GET /It'), Buffer.from('é'), Buffer.from('ms HTTP/1.1\r\nHost: x\r\n\r\n')]),
    );
    expect(a.status).toBe(400);
    expect(problem(a).detail).toMatch(/percent-encode/);
  });

  it('answers a request line and headers over the limit 431, however they grew', async () => {
    for (const line of [
      `GET /${'seg12/'.repeat(3000)} HTTP/1.1`,
      `GET /_workbench/transfers?${Array.from({ length: 3000 }, (_, i) => `p${i}=1`).join('&')} HTTP/1.1`,
    ]) {
      const [a] = await alone(head([line, 'Host: x', ...auth()]));
      expect(a.status).toBe(431);
      expect(problem(a).detail).toMatch(/shorten the path or the query/);
    }
    const [a] = await alone(head(['GET /Items HTTP/1.1', 'Host: x', `X-Pad: ${'p'.repeat(20_000)}`]));
    expect(a.status).toBe(431);
  });

  it('answers a lower-case method whose body nests 100,000 deep before the body ends, and reads the rest', async () => {
    const body = '['.repeat(100_000) + ']'.repeat(100_000);
    const [a] = await alone(
      head([
        'post /Brands HTTP/1.1',
        'Host: x',
        ...auth(),
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
      ]) + body,
    );
    expect(problem(a).type).toMatch(/:invalid-method$/);
  });

  it('answers a body cut short when the client closes its side', async () => {
    const answers = await alone(
      head(['POST /Colors HTTP/1.1', 'Host: x', ...auth(), 'Content-Type: application/json', 'Content-Length: 50']) +
        '{"colors":[',
      true,
    );
    expect(answers.map((a) => a.status)).toEqual([400]);
    expect(problem(answers[0]).type).toMatch(/:invalid-framing$/);
  });

  it('answers the requests before a refused one first, in order, on a pipelined connection', async () => {
    const c = await RawConnection.open(t.url);
    c.send(
      head(['GET /_workbench/summary HTTP/1.1', 'Host: x', ...auth()]) +
        head(['POST /Colors HTTP/1.1', 'Host: x', ...auth(), 'Content-Type: application/json', 'Content-Length: 14']) +
        '{"colors":[7]}' +
        head(['GET /nowhere HTTP/1.1', 'Host: x']) +
        head(['post /Colors HTTP/1.1', 'Host: x']),
    );
    const answers = await c.all();
    c.close();
    expect(c.error).toBeUndefined();
    expect(answers.map((a) => a.status)).toEqual([200, 400, 404, 400]);
    expect(answers.slice(1).map((a) => problem(a).instance)).toEqual(['/Colors', '/nowhere', undefined]);
    expect(problem(answers[3]).type).toMatch(/:invalid-method$/);
  });

  it('refuses CONNECT: it is not a proxy', async () => {
    const [a] = await alone(head(['CONNECT 127.0.0.1:1 HTTP/1.1', 'Host: x']));
    expect(a.status).toBe(405);
    expect(a.headers.allow).toBe('GET, POST, PUT, DELETE');
  });
});

describe('requests Node would answer without a body', () => {
  it('refuses an HTTP/1.1 request without Host, naming the header', async () => {
    const c = await RawConnection.open(t.url);
    c.send(head(['GET /_workbench/summary HTTP/1.1', ...auth()]));
    const a = (await c.next())!;
    c.close();
    expect(problemFault(a)).toBeUndefined();
    expect(a.status).toBe(400);
    expect(problem(a).type).toMatch(/:missing-host$/);
    // HTTP/1.0 needs none.
    const [old] = await alone(head(['GET /_workbench/summary HTTP/1.0', ...auth()]));
    expect(old.status).toBe(200);
  });

  it('refuses an Expect other than 100-continue, and honours 100-continue', async () => {
    const c = await RawConnection.open(t.url);
    c.send(head(['POST /Colors HTTP/1.1', 'Host: x', ...auth(), 'Expect: 200-ok', 'Content-Length: 2']) + '{}');
    const a = (await c.next())!;
    expect(problemFault(a)).toBeUndefined();
    expect(a.status).toBe(417);
    expect(problem(a).detail).toMatch(/without that Expect header/);
    // The connection stays open for the next request.
    c.send(
      head([
        'POST /Colors HTTP/1.1',
        'Host: x',
        ...auth(),
        'Expect: 100-continue',
        'Content-Type: application/json',
        'Content-Length: 14',
      ]) + '{"colors":[7]}',
    );
    const b = (await c.next())!;
    c.close();
    expect(b.status).toBe(400);
    expect(problem(b).type).toMatch(/:validation-failed$/);
  });

  it('refuses a body in a content coding it does not decode 415, saying so', async () => {
    const c = await RawConnection.open(t.url);
    const body = '/* compressed */{"colors":[{"colorId":"GZ","code":"G"}]}';
    c.send(
      head([
        'POST /Colors HTTP/1.1',
        'Host: x',
        ...auth(),
        'Content-Type: application/json',
        'Content-Encoding: gzip',
        `Content-Length: ${body.length}`,
      ]) + body,
    );
    const a = (await c.next())!;
    c.close();
    expect(problemFault(a)).toBeUndefined();
    expect(a.status).toBe(415);
    expect(a.headers['accept-encoding']).toBe('identity');
    expect(problem(a).detail).toMatch(/Content-Encoding: gzip, which this server does not decode/);
  });
});

describe('look-alike paths', () => {
  const status = async (method: string, path: string, body?: string) => {
    const c = await RawConnection.open(t.url);
    const length =
      body === undefined ? [] : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`];
    c.send(head([`${method} ${path} HTTP/1.1`, 'Host: x', ...auth(), ...length]) + (body ?? ''));
    const a = (await c.next())!;
    c.close();
    expect(problemFault(a), path).toBeUndefined();
    return a.status;
  };

  it('match in ASCII case only: a letter that merely folds to one is another path', async () => {
    const body = '{"merchandiseCategories":[{"merchandiseCategoryId":"LOOK","code":"L"}]}';
    // Dotless ı, long ſ and the Kelvin sign K fold to i, s and k in some case mapping; no proxy takes them for those.
    expect(await status('POST', '/Merchand%C4%B1%C5%BFeCategor%C4%B1e%C5%BF', body)).toBe(404);
    expect(await status('POST', '/MERCHAND%C4%B0SECATEGOR%C4%B0ES', body)).toBe(404);
    expect(await status('GET', '/_wor%E2%84%AAbench/summary')).toBe(404);
    expect(await status('POST', '/To%E2%84%AAen', '{}')).toBe(404);
    expect(await status('POST', '/Stoc%E2%84%AA', '{"stock":[]}')).toBe(404);
    expect(await status('GET', '/_workbench/data/Stoc%E2%84%AA')).toBe(404);
    // ASCII in any case still is the path; a look-alike in a value (an id) is that value.
    expect(await status('GET', '/_WORKBENCH/SUMMARY')).toBe(200);
    expect(await status('GET', '/_workbench/data/%E2%84%AAelvin')).toBe(404);
    expect(await status('GET', '/_WORKBENCH/Data/COLORS/%E2%84%AA')).toBe(200);
    expect(await status('GET', '/_workbench/data/Colors/K')).toBe(404);
  });

  it('changed nothing', async () => {
    expect(await workspaceState(t, token)).toEqual(before);
  });
});

// ---- the storm --------------------------------------------------------------------------------------------------

interface Outcome {
  request: StormRequest;
  answers: RawAnswer[];
  /** The connection failed (a reset) or closed before an answer. */
  failure?: string;
}

/** Sends the requests over `workers` keep-alive connections, one request at a time on each; some alone. */
async function storm(requests: StormRequest[], workers: number): Promise<{ outcomes: Outcome[]; connections: number }> {
  const outcomes: Outcome[] = [];
  let next = 0;
  let connections = 0;
  const open = async () => {
    connections++;
    return RawConnection.open(t.url);
  };
  const worker = async () => {
    let c: RawConnection | undefined;
    while (next < requests.length) {
      const request = requests[next++];
      if (request.alone) {
        const own = await open();
        own.send(request.bytes, request.endAfter);
        const answers = await own.all();
        own.close();
        outcomes.push({
          request,
          answers,
          failure: own.error ? `reset: ${own.error.code}` : answers.length ? undefined : 'closed without an answer',
        });
        continue;
      }
      if (!c || c.ended || c.error) c = await open();
      c.send(request.bytes);
      const answer = await c.next();
      if (!answer) {
        outcomes.push({
          request,
          answers: [],
          failure: c.error ? `reset: ${c.error.code}` : 'closed without an answer',
        });
        c.close();
        c = undefined;
        continue;
      }
      outcomes.push({ request, answers: [answer] });
      // An answer that closes the connection ends it here; the next request goes on a new one.
      if (/close/i.test(answer.headers.connection ?? '')) {
        const rest = await c.finish();
        if (c.error || rest.length)
          outcomes.at(-1)!.failure = c.error ? `reset after the answer: ${c.error.code}` : 'answered twice';
        c.close();
        c = undefined;
      }
    }
    c?.close();
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return { outcomes, connections };
}

describe('a storm of hostile requests', () => {
  it('answers each of 10,000 with no 5xx and no reset, every error a problem body, and changes nothing', async () => {
    const seed = Number(process.env.STORM_SEED ?? 20_251_126);
    const { tenant, clientId, clientSecret } = t.server.info;
    const requests = stormRequests(seed, 10_000, { token, tenant, clientId, clientSecret }, host);
    const { outcomes, connections } = await storm(requests, 8);

    const byStatus = new Map<number, number>();
    const faults: string[] = [];
    const count = { answers: 0, errors: 0, status5xx: 0, unanswered: 0, resets: 0, notProblems: 0, misplaced: 0 };
    for (const o of outcomes) {
      if (o.failure) {
        faults.push(`${o.request.what}: ${o.failure}`);
        if (o.failure.startsWith('reset')) count.resets++;
        if (!o.answers.length) count.unanswered++;
      }
      for (const a of o.answers) {
        count.answers++;
        byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
        if (a.status >= 400) count.errors++;
        if (a.status >= 500) {
          count.status5xx++;
          faults.push(`${o.request.what}: ${a.status} ${a.body.slice(0, 200)}`);
        }
        const fault = problemFault(a);
        if (fault) {
          count.notProblems++;
          faults.push(`${o.request.what}: ${a.status} ${fault}`);
        }
        // A routed answer is the answer to this request, not to another on the connection.
        const instance = a.status >= 400 && !fault ? problem(a).instance : undefined;
        if (instance !== undefined && !o.request.alone && instance !== o.request.path) {
          count.misplaced++;
          faults.push(`${o.request.what}: answered for ${instance}`);
        }
      }
    }
    const statuses = [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}×${n}`)
      .join(', ');
    const state = await workspaceState(t, token);
    const unchanged = JSON.stringify(state) === JSON.stringify(before);
    console.log(
      `hostile storm (seed ${seed}): ${outcomes.length} requests ` +
        `(${outcomes.filter((o) => o.request.alone).length} on a connection of their own) over ${connections} ` +
        `connections: ${count.answers} answers, ${count.errors} errors, ${count.status5xx} answered 5xx, ` +
        `${count.unanswered} unanswered, ${count.resets} reset, ${count.notProblems} errors not a problem body, ` +
        `${count.misplaced} answers out of place, workspace ${unchanged ? 'unchanged' : 'CHANGED'}; ` +
        `answers: ${statuses}`,
    );
    expect(outcomes).toHaveLength(10_000);
    expect(faults.slice(0, 20)).toEqual([]);
    expect(state).toEqual(before);
  }, 300_000);
});
