/** Browser mode: the built renderer, served from its folder at / (no token needed to fetch the page itself). */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { HttpProblem } from '../problem.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
};

export function uiRoutes(root: string) {
  const base = normalize(root) + sep;
  const send = async (file: string) => {
    const path = normalize(join(root, file));
    // Nothing outside the renderer's folder is served, whatever the path says.
    if (!path.startsWith(base)) throw new HttpProblem(404, 'not-found', 'no such file');
    try {
      return { body: await readFile(path), type: TYPES[extname(path)] ?? 'application/octet-stream' };
    } catch {
      throw new HttpProblem(404, 'not-found', 'no such file');
    }
  };
  return async (app: FastifyInstance) => {
    const opts = { schema: { hide: true }, config: { public: true } };
    app.get('/', opts, async (req, reply) => {
      req.audit.quiet = true;
      const f = await send('index.html');
      return reply.type(f.type).send(f.body);
    });
    app.get('/assets/*', opts, async (req, reply) => {
      req.audit.quiet = true;
      const f = await send(join('assets', (req.params as { '*': string })['*']));
      return reply.type(f.type).header('cache-control', 'no-cache').send(f.body);
    });
  };
}
