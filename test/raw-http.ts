/**
 * HTTP/1.1 over a plain socket, for requests no HTTP client would send: the bytes go out exactly as given, and the
 * answers are read one by one as they come, interim 1xx answers skipped. A reset or a close before an answer is
 * seen as such, never hidden by a client library's retry.
 */
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

const CRLF2 = Buffer.from('\r\n\r\n');

export class RawConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  /** The server closed its side. */
  ended = false;
  /** The connection failed: a reset, or a write into a closed connection. */
  error: NodeJS.ErrnoException | undefined;

  private constructor(readonly socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, d]) : d;
      this.wake?.();
    });
    socket.on('end', () => {
      this.ended = true;
      socket.end();
      this.wake?.();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      this.error ??= e;
      this.wake?.();
    });
    socket.on('close', () => {
      this.ended = true;
      this.wake?.();
    });
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
      socket.once('error', reject);
      socket.setNoDelay(true);
    });
  }

  send(bytes: Buffer | string, endAfter = false): void {
    if (this.socket.destroyed) return;
    if (endAfter) this.socket.end(bytes);
    else this.socket.write(bytes);
  }

  close(): void {
    this.socket.destroy();
  }

  /** Resolves once more bytes came, or the connection ended or failed. */
  private more(): Promise<void> {
    if (this.ended || this.error) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = undefined;
        resolve();
      };
    });
  }

  /** The next whole answer; undefined when the connection ends or fails first. */
  async next(): Promise<RawAnswer | undefined> {
    for (;;) {
      const answer = this.take();
      if (answer && answer.status >= 200) return answer;
      if (answer) continue;
      if (this.ended || this.error) return undefined;
      await this.more();
    }
  }

  /** Closes this side, and reads what answers are left until the server closes too. */
  finish(): Promise<RawAnswer[]> {
    this.socket.end();
    return this.all();
  }

  /** Every answer until the server closes the connection. */
  async all(): Promise<RawAnswer[]> {
    const out: RawAnswer[] = [];
    for (let a = await this.next(); a; a = await this.next()) out.push(a);
    return out;
  }

  /** One answer parsed off the front of the buffer, when it has arrived whole. */
  private take(): RawAnswer | undefined {
    const end = this.buffer.indexOf(CRLF2);
    if (end < 0) return undefined;
    const [statusLine, ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? NaN);
    if (!Number.isInteger(status)) throw new Error(`not an HTTP answer: ${statusLine.slice(0, 100)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const at = line.indexOf(':');
      headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
    const start = end + 4;
    let body: Buffer;
    let rest: number;
    if (status < 200 || status === 204 || status === 304) {
      body = Buffer.alloc(0);
      rest = start;
    } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const chunks: Buffer[] = [];
      let at = start;
      for (;;) {
        const lineEnd = this.buffer.indexOf('\r\n', at);
        if (lineEnd < 0) return undefined;
        const size = parseInt(this.buffer.subarray(at, lineEnd).toString('latin1'), 16);
        if (this.buffer.length < lineEnd + 2 + size + 2) return undefined;
        if (size === 0) {
          rest = lineEnd + 4;
          break;
        }
        chunks.push(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(chunks);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (this.buffer.length < start + length) return undefined;
      body = this.buffer.subarray(start, start + length);
      rest = start + length;
    } else {
      // Delimited by the close of the connection.
      if (!this.ended && !this.error) return undefined;
      body = this.buffer.subarray(start);
      rest = this.buffer.length;
    }
    this.buffer = this.buffer.subarray(rest);
    return { status, headers, body: body.toString('utf8') };
  }
}

/** Sends the bytes on a connection of their own and reads every answer until the server closes it. */
export async function exchange(
  url: string,
  bytes: Buffer | string,
  options: { endAfter?: boolean } = {},
): Promise<{ answers: RawAnswer[]; error?: NodeJS.ErrnoException }> {
  const c = await RawConnection.open(url);
  c.send(bytes, options.endAfter);
  const answers = await c.all();
  c.close();
  return { answers, error: c.error };
}
