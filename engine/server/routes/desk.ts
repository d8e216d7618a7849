/** The app's own admin routes: which workspace its screens work on, and the local API it runs on the side. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DeskControls } from '../desk-controls.js';

export function deskRoutes(desk: DeskControls) {
  return async (app: FastifyInstance) => {
    const doc = (summary: string) => ({ tags: ['Workbench admin'], summary, security: [{ bearer: [] }] });
    // The server answering a switch belongs to the workspace being left: the switch goes ahead once this request's
    // answer is out (onResponse), or its connection closed before that (a closed tab must not leave it waiting).
    const switches = new WeakMap<FastifyRequest, () => void>();
    const switchAfterAnswer = { onResponse: async (req: FastifyRequest) => switches.get(req)?.() };
    const prepare = async (req: FastifyRequest, reply: FastifyReply, create: boolean) => {
      let closed = false;
      let go: (() => void) | undefined;
      reply.raw.once('close', () => {
        closed = true;
        go?.();
      });
      const prepared = await desk.prepareSwitch({ ...((req.body ?? {}) as object), create });
      go = prepared.go;
      switches.set(req, go);
      if (closed) go();
      return prepared.entry;
    };

    app.get(
      '/workspaces',
      { schema: doc('The workspace open now, and those in the home folder or opened lately') },
      async () => desk.workspaces(),
    );
    app.post(
      '/workspaces',
      {
        schema: doc('Create a workspace in the home folder by name and move to it; body: {name}'),
        ...switchAfterAnswer,
      },
      async (req, reply) => prepare(req, reply, true),
    );
    app.post(
      '/workspaces/open',
      {
        schema: doc('Move to another workspace: {name} in the home folder, or {path} of one opened lately'),
        ...switchAfterAnswer,
      },
      async (req, reply) => prepare(req, reply, false),
    );

    app.get(
      '/listener',
      {
        schema: doc(
          "The local API the app runs for an integrator's client: address, tenant and credentials while it listens",
        ),
      },
      async (req) => {
        req.audit.secret = true;
        return desk.listener();
      },
    );
    app.post(
      '/listener/start',
      { schema: doc('Start the local API on 127.0.0.1; body: {port (0: any free), tenant?}') },
      async (req) => {
        req.audit.secret = true;
        return desk.startListener(req.body);
      },
    );
    app.post('/listener/stop', { schema: doc('Stop the local API') }, async () => desk.stopListener());
    // The app has no address of its own to fetch /openapi.json from.
    app.get('/openapi', { schema: doc('The OpenAPI document, for the app to save') }, async (req) => {
      req.audit.quiet = true;
      return app.swagger();
    });
  };
}
