/** The admin routes as Fastify routes: each part validated by its schema, described in the OpenAPI document. */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { ARROW_STREAM, sendArrow, wantsArrow } from '../arrow.js';
import type { AnyRoute, RouteTable } from './route.js';
import { adminValidator } from './validate.js';

const TAG = 'Workbench admin';

/** Registers every route of a table on `app` (under its prefix); handlers reach `context` and their exchange. */
export function registerAdminRoutes<C>(app: FastifyInstance, table: RouteTable<C>, context: C): void {
  for (const [key, def] of Object.entries(table) as [string, AnyRoute<C>][]) {
    const [method, url] = key.split(' ') as [RouteOptions['method'] & string, string];
    app.route({
      method,
      url,
      schema: {
        tags: [TAG],
        summary: def.summary,
        security: [{ bearer: [] }],
        ...(def.params ? { params: def.params } : {}),
        ...(def.query ? { querystring: def.query } : {}),
        ...(def.body ? { body: def.body } : {}),
        response: {
          [def.status ?? 200]: def.arrow
            ? {
                description: def.response.description ?? 'OK',
                content: {
                  'application/json': { schema: def.response },
                  [ARROW_STREAM]: { schema: { type: 'string', format: 'binary' } },
                },
              }
            : def.response,
        },
      },
      validatorCompiler: adminValidator,
      ...(def.bodyLimit ? { bodyLimit: def.bodyLimit } : {}),
      config: { secret: def.audit === 'secret' },
      ...(def.bodyOptional
        ? {
            // No body at all is "all defaults"; a body that is JSON `null` is still checked, and refused.
            preValidation: async (req) => {
              if (req.body === undefined) req.body = {};
            },
          }
        : {}),
      ...(def.onResponse ? { onResponse: def.onResponse } : {}),
      handler: async (req, reply) => {
        if (def.audit === 'quiet') req.audit.quiet = true;
        if (def.status) reply.code(def.status);
        const answer = await def.handle(
          { params: req.params, query: req.query, body: req.body },
          { ...context, req, reply },
        );
        return def.arrow && wantsArrow(req) && !reply.sent ? sendArrow(reply, answer, def.arrow) : answer;
      },
    });
  }
}
