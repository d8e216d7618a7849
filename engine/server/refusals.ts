/**
 * Requests Node's HTTP parser refuses never reach a route: a header it cannot read, a method in lower case, bytes
 * that are not ASCII in the path, a request line and headers over the limit, a body that does not match its
 * framing, a request too slow to arrive. They are answered here, on the connection itself, with a problem body like
 * every other error (docs/design.md §3.9), and the connection is then closed: after the parser lost its place,
 * nothing more on it can be read as a request.
 *
 * The answer waits for the answers owed to the requests before it on the connection (a pipelined client reads them
 * in order), and the connection closes gently: the server stops writing but reads and drops what the client is
 * still sending, so the client reads the answer rather than a reset.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { bareProblem, PROBLEM_TYPE, type ProblemBody } from './problem.js';

/** How long a refused connection is read from, at most, before it is dropped. */
const DRAIN_MS = 10_000;

type ParserError = Error & { code?: string; reason?: string };

/** What a parser error means to the client, and what to change. */
interface Refusal {
  status: number;
  slug: string;
  advice: string;
}

const malformed = (advice: string): Refusal => ({ status: 400, slug: 'malformed-request', advice });

/** The refusals, each with the parser's error codes that mean it. */
const REFUSALS: readonly (readonly [codes: readonly string[], refusal: Refusal])[] = [
  [
    ['HPE_HEADER_OVERFLOW'],
    {
      status: 431,
      slug: 'headers-too-large',
      advice:
        `the request line and headers come to more than ${maxHeaderSize} bytes: shorten the path or the query ` +
        'string, or send fewer headers (records travel in the body)',
    },
  ],
  [
    ['ERR_HTTP_REQUEST_TIMEOUT'],
    {
      status: 408,
      slug: 'request-timeout',
      advice: 'the request did not arrive whole in time: send it again, all of it',
    },
  ],
  [
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW'],
    {
      status: 413,
      slug: 'body-too-large',
      advice: 'the chunk extensions of the body are too long: send the body without them',
    },
  ],
  [
    ['HPE_INVALID_METHOD'],
    {
      status: 400,
      slug: 'invalid-method',
      advice:
        'the request does not start with a method HTTP knows, in capitals: send GET, POST, PUT or DELETE ' +
        '(this server speaks plain HTTP/1.1, not TLS or HTTP/2)',
    },
  ],
  [
    ['HPE_INVALID_URL'],
    {
      status: 400,
      slug: 'invalid-path',
      advice:
        'the path holds a character a request line may not carry: percent-encode everything but ASCII letters, ' +
        'digits and - . _ ~ / as UTF-8 (é as %C3%A9)',
    },
  ],
  [
    ['HPE_INVALID_CONSTANT', 'HPE_INVALID_VERSION', 'HPE_CR_EXPECTED', 'HPE_LF_EXPECTED', 'HPE_STRICT'],
    malformed(
      'the request line is not "METHOD /path HTTP/1.1" ending in CR LF: percent-encode spaces in the path ' +
        'as %20, and end every line with CR LF',
    ),
  ],
  [
    ['HPE_INVALID_HEADER_TOKEN'],
    {
      status: 400,
      slug: 'invalid-header',
      advice:
        "a header's name or value holds a character HTTP does not allow, or a header is folded onto a second " +
        'line: send each header on one line, as name: value, in visible ASCII',
    },
  ],
  [
    ['HPE_INVALID_CONTENT_LENGTH', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
    {
      status: 400,
      slug: 'invalid-length',
      advice: 'send one Content-Length, a whole number of bytes that the body then holds exactly',
    },
  ],
  [
    ['HPE_INVALID_TRANSFER_ENCODING', 'HPE_INVALID_CHUNK_SIZE', 'HPE_INVALID_EOF_STATE'],
    {
      status: 400,
      slug: 'invalid-framing',
      advice:
        'the body is not framed as its headers say: send Content-Length with the exact byte count, or ' +
        'Transfer-Encoding: chunked alone with each chunk led by its size in hex',
    },
  ],
  [['HPE_PAUSED_H2_UPGRADE'], malformed('this server speaks HTTP/1.1: send HTTP/1.1 requests')],
];

const REFUSAL_BY_CODE = new Map(REFUSALS.flatMap(([codes, refusal]) => codes.map((c) => [c, refusal] as const)));

/** Any other parser error: named by the parser's reason, which the answer repeats. */
const OTHER_REFUSAL = malformed(
  'the request is not well-formed HTTP/1.1: check its request line, headers and body framing',
);

function refusalOf(error: ParserError): Refusal {
  return (error.code === undefined ? undefined : REFUSAL_BY_CODE.get(error.code)) ?? OTHER_REFUSAL;
}

/** The answer as bytes, written to the connection directly, closing it. */
function answerText(body: ProblemBody, headers: Record<string, string> = {}): string {
  const json = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${body.status} ${STATUS_CODES[body.status] ?? 'Error'}`,
    `Content-Type: ${PROBLEM_TYPE}; charset=utf-8`,
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Connection: close',
    `X-Request-Id: ${body.requestId}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${json}`;
}

/** One request on a connection and its answer, until the answer is done. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
}

export interface Refusals {
  /** Fastify's `clientErrorHandler`: a request the parser refused. */
  clientError(error: ParserError, socket: Duplex): void;
  /** Follows the server's connections, and answers what it would otherwise drop without a word. */
  watch(server: Server): void;
}

export function refusals(): Refusals {
  const exchanges = new WeakMap<Duplex, Set<Exchange>>();
  /** Connections refused once: the parser keeps failing on what follows, and is not answered again. */
  const refused = new WeakSet<Duplex>();
  /** What to do once the answers owed on a connection are done. */
  const waiting = new WeakMap<Duplex, () => void>();

  /**
   * Every answer owed on the connection is written: none is left to a request read whole, or begun. What remains
   * is a request the parser failed in the middle of (its body), and the refusal is its answer.
   */
  const settled = (socket: Duplex) =>
    [...(exchanges.get(socket) ?? [])].every((x) => !x.req.complete && !x.res.headersSent);

  const close = (socket: Duplex, body: ProblemBody, headers?: Record<string, string>) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(answerText(body, headers));
    const timer = setTimeout(() => socket.destroy(), DRAIN_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    // Read what still comes, so the close is a FIN after the answer and not a reset before it.
    socket.resume();
  };

  const refuse = (socket: Duplex, body: ProblemBody, headers?: Record<string, string>) => {
    if (socket.destroyed || refused.has(socket)) return;
    refused.add(socket);
    if (settled(socket)) close(socket, body, headers);
    else waiting.set(socket, () => close(socket, body, headers));
  };

  return {
    clientError(error, socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const { status, slug, advice } = refusalOf(error);
      const parser = error.reason && error.reason !== advice ? ` (the HTTP parser: ${error.reason})` : '';
      refuse(socket, bareProblem(status, slug, `${advice}${parser}`, { requestId: randomUUID() }));
    },

    watch(server) {
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        const socket = req.socket;
        let open = exchanges.get(socket);
        if (!open) exchanges.set(socket, (open = new Set()));
        const x = { req, res };
        open.add(x);
        res.once('close', () => {
          open.delete(x);
          const then = waiting.get(socket);
          if (then && settled(socket)) {
            waiting.delete(socket);
            then();
          }
        });
      });
      // Without a listener Node answers an Expect it does not know with a bare 417, and drops a CONNECT: the
      // routes' checks answer the first (request-checks.ts), and a CONNECT is refused here.
      server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
      server.on('connect', (req: IncomingMessage, socket: Duplex) =>
        refuse(
          socket,
          bareProblem(405, 'method-not-allowed', 'this server is not a proxy: it takes GET, POST, PUT and DELETE', {
            requestId: randomUUID(),
          }),
          { Allow: 'GET, POST, PUT, DELETE' },
        ),
      );
    },
  };
}
