import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Client, workflow, type Workflow } from '@novu/framework';
import { serve } from '@novu/framework/express';

// A customer's app as a new user writes it: an Express server serving @novu/framework workflows
// at /api/novu, with strict authentication on (every call but the health check must carry the
// environment's signature). Tests start one on a free port and stop it at the end.

export interface BridgeApp {
  url: string;
  /** Every request the bridge got: its action, step, answer status and (a POST's) JSON body. */
  calls: { action: string; workflowId?: string; stepId?: string; status: number; signed: boolean; body?: any }[];
  /** Replaces the served workflows (a later sync then sees the change). */
  setWorkflows(workflows: Workflow[]): void;
  /** Runs before the framework on every call: a test's fault (a status to answer, a delay). */
  setFault(fault: ((req: express.Request, res: express.Response) => Promise<boolean>) | undefined): void;
  close(): Promise<void>;
}

export async function startBridgeApp(secretKey: string, workflows: Workflow[]): Promise<BridgeApp> {
  // A client keeps every workflow it was ever given: a new one per set of workflows.
  const served = (list: Workflow[]) => serve({ client: new Client({ secretKey, strictAuthentication: true }), workflows: list });
  let handler = served(workflows);
  let fault: ((req: express.Request, res: express.Response) => Promise<boolean>) | undefined;
  const calls: BridgeApp['calls'] = [];
  const app = express();
  app.use(express.json({ limit: '2mb' }));
  app.use('/api/novu', async (req, res, next) => {
    res.on('finish', () =>
      calls.push({
        action: String(req.query.action ?? ''),
        ...(req.query.workflowId !== undefined && { workflowId: String(req.query.workflowId) }),
        ...(req.query.stepId !== undefined && { stepId: String(req.query.stepId) }),
        status: res.statusCode,
        signed: typeof req.headers['novu-signature'] === 'string',
        ...(req.method === 'POST' && { body: req.body }),
      }),
    );
    if (fault && (await fault(req, res))) return;
    return handler(req, res, next);
  });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/novu`,
    calls,
    setWorkflows: (next) => {
      handler = served(next);
    },
    setFault: (next) => {
      fault = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export { workflow };
