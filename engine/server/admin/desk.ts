/** The app's own admin routes: which workspace its screens work on, and the local API it runs on the side. */
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
// The OpenAPI document's accessor on the server (`swagger()`).
import type {} from '@fastify/swagger';
import { WORKSPACE_NAME, type WorkspaceEntry } from '../../service/workspace-home.js';
import type { DeskControls, ListenerStatus, WorkspacesView } from '../desk-controls.js';
import { answer, routeFor, type Exchange } from './route.js';

export interface DeskContext {
  desk: DeskControls;
}
const route = routeFor<DeskContext>();

// The server answering a switch belongs to the workspace being left: the switch goes ahead once this request's
// answer is out (onResponse), or its connection closed before that (a closed tab must not leave it waiting).
const switches = new WeakMap<FastifyRequest, () => void>();
const switchAfterAnswer = async (req: FastifyRequest) => switches.get(req)?.();
async function prepare(
  { desk, req, reply }: DeskContext & Exchange,
  target: { name?: string; path?: string },
  create: boolean,
): Promise<WorkspaceEntry> {
  let closed = false;
  let go: (() => void) | undefined;
  reply.raw.once('close', () => {
    closed = true;
    go?.();
  });
  const prepared = await desk.prepareSwitch({ ...target, create });
  go = prepared.go;
  switches.set(req, go);
  if (closed) go();
  return prepared.entry;
}

const Entry = answer<WorkspaceEntry>('WorkspaceEntry', 'The workspace moved to: its name and folder.');
const Listener = answer<ListenerStatus>('ListenerStatus', 'Whether it listens, its address, tenant and credentials.');
const NAME_RULE = '1 to 80 letters, digits, ".", "-" or "_"';
const WorkspaceName = Type.String({
  pattern: WORKSPACE_NAME.source,
  description: `A workspace in the home folder, by name: ${NAME_RULE}.`,
  errorMessage: `a workspace name is ${NAME_RULE}`,
});

export const deskRoutes = {
  'GET /workspaces': route({
    summary: 'The workspace open now, and those in the home folder or opened lately',
    response: answer<WorkspacesView>('WorkspacesView', 'The home folder, the current workspace, the known ones.'),
    handle: async (_, { desk }) => desk.workspaces(),
  }),

  'POST /workspaces': route({
    summary: 'Create a workspace in the home folder by name and move to it',
    body: Type.Object({ name: WorkspaceName }, { additionalProperties: false }),
    response: Entry,
    onResponse: switchAfterAnswer,
    handle: async ({ body }, ctx) => prepare(ctx, body, true),
  }),

  'POST /workspaces/open': route({
    summary: 'Move to another workspace: {name} in the home folder, or {path} of one opened lately',
    body: Type.Object(
      {
        name: Type.Optional(WorkspaceName),
        path: Type.Optional(Type.String({ minLength: 1, description: 'The folder of a workspace opened lately.' })),
      },
      { additionalProperties: false },
    ),
    response: Entry,
    onResponse: switchAfterAnswer,
    handle: async ({ body }, ctx) => prepare(ctx, body, false),
  }),

  'GET /listener': route({
    summary: "The local API the app runs for an integrator's client: address, tenant and credentials while it listens",
    audit: 'secret',
    response: Listener,
    handle: async (_, { desk }) => desk.listener(),
  }),

  'POST /listener/start': route({
    summary: 'Start the local API on 127.0.0.1',
    audit: 'secret',
    body: Type.Object(
      {
        port: Type.Integer({ minimum: 0, maximum: 65_535, description: 'The port; 0: any free port.' }),
        tenant: Type.Optional(
          Type.String({
            pattern: WORKSPACE_NAME.source,
            description: `The tenant clients send in X-Tenant: ${NAME_RULE}.`,
            errorMessage: `a tenant is ${NAME_RULE}`,
          }),
        ),
      },
      { additionalProperties: false },
    ),
    response: Listener,
    handle: async ({ body }, { desk }) => desk.startListener(body),
  }),

  'POST /listener/stop': route({
    summary: 'Stop the local API',
    response: Listener,
    handle: async (_, { desk }) => desk.stopListener(),
  }),

  // The app has no address of its own to fetch /openapi.json from.
  'GET /openapi': route({
    summary: 'The OpenAPI document, for the app to save',
    audit: 'quiet',
    response: answer<unknown>('OpenApiDocument', 'The OpenAPI 3.1 document of the local API.'),
    handle: async (_, { req }) => req.server.swagger(),
  }),
};
