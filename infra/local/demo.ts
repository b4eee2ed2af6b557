import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { findCallerByApiKey } from '#lib/auth/api-keys.ts';
import { provisionOrganization } from '#lib/accounts/provision.ts';
import { ensureDemoWorkflow } from '#lib/workflows/demo.ts';

// The demo organization `npm start` prints keys for. Its ids and keys go to .local/demo.json so
// scripts can use them. Against a persistent store (e.g. real AWS) the existing demo is reused
// while its keys still work, instead of a new organization each start.

export interface DemoFile {
  organizationId: string;
  /** `applicationIdentifier`: what a front end (`<Inbox />`, `@novu/js`) opens the environment's inboxes with. */
  environments: { name: string; id: string; apiKey: string; applicationIdentifier: string }[];
  /** The demo workflow in the first (Development) environment. */
  workflow?: { id: string; workflowId: string };
  /** Where the last `npm start` served: the HTTP API and the inbox sockets (`ws://…`). */
  apiUrl?: string;
  socketUrl?: string;
}

export function writeDemo(file: string, demo: DemoFile): void {
  writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`);
}

export async function ensureDemo(file: string): Promise<{ demo: DemoFile; created: boolean }> {
  if (existsSync(file)) {
    const demo = JSON.parse(readFileSync(file, 'utf8')) as DemoFile;
    const checks = await Promise.all(demo.environments.map((e) => findCallerByApiKey(e.apiKey)));
    // Demos from before environments had application identifiers are made again.
    const complete = demo.environments.every((e) => typeof e.applicationIdentifier === 'string');
    if (complete && demo.environments.length > 0 && checks.every((caller) => caller?.organizationId === demo.organizationId)) {
      // Demos from before the demo workflow existed get it now.
      if (!demo.workflow) {
        demo.workflow = await ensureDemoWorkflow(checks[0]!);
        writeDemo(file, demo);
      }
      return { demo, created: false };
    }
  }
  const provisioned = await provisionOrganization('Demo Organization');
  const demo: DemoFile = {
    organizationId: provisioned.organization._id,
    environments: provisioned.environments.map(({ environment, apiKey }) => ({
      name: environment.name,
      id: environment._id,
      apiKey,
      applicationIdentifier: environment.identifier,
    })),
  };
  const [development] = provisioned.environments;
  if (development) {
    demo.workflow = await ensureDemoWorkflow({
      organizationId: provisioned.organization._id,
      environmentId: development.environment._id,
      userId: provisioned.ownerId,
    });
  }
  writeDemo(file, demo);
  return { demo, created: true };
}
