/** Admin routes for an integrator's rehearsal: how a client reaches the API, what it sent, and what the lint finds. */
import { Type } from '@sinclair/typebox';
import type { LintReport } from '../../ingest/lint.js';
import type { RequestLogEntry } from '../../model/request-log.js';
import type { ServerContext } from '../context.js';
import { answer, routeFor } from './route.js';
import { ADMIN_PAGE_LIMIT } from './schemas.js';

const route = routeFor<ServerContext>();

/** How a client reaches the local API, as the workbench describes it. */
export type Integration = ReturnType<ServerContext['integration']>;

export const logRoutes = {
  'GET /integration': route({
    summary: 'How a client reaches this API: address, tenant, client id and secret',
    audit: 'secret',
    response: answer<Integration>('Integration', 'Address (once listening), tenant, client id and secret, a curl.'),
    handle: async (_, { integration }) => integration(),
  }),

  'GET /log': route({
    summary: 'The request log, oldest first: the entries after afterId, or the newest ones',
    audit: 'quiet',
    query: Type.Object({
      afterId: Type.Optional(Type.Integer({ minimum: 0, description: 'Entries after this one.' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_PAGE_LIMIT })),
    }),
    response: answer<{ entries: RequestLogEntry[] }>('RequestLog', '{entries}: method, path, status, errors, excerpt.'),
    handle: async ({ query }, { wb }) => ({ entries: await wb.requestLog(query) }),
  }),

  'GET /lint': route({
    summary: "The feed lint: the spec's pitfalls found in the stored data and recent requests",
    response: answer<LintReport>('LintReport', 'Each finding with its count and examples.'),
    handle: async (_, { wb }) => wb.lint(),
  }),
};
