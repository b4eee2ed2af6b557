import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureConsoleBuilt } from './console-build.ts';
import { ensureDemo, writeDemo } from './demo.ts';
import { startLocalStack } from './stack.ts';

// `npm start`: the whole service on this machine, with a demo organization to try it on.
// PORT picks the API's port (3000; 0: any free port), SOCKET_PORT the inbox sockets' (PORT + 1: 3001);
// DYNAMODB_ENDPOINT / SQS_ENDPOINT point at an external DynamoDB or
// SQS (a URL, or `aws` for real AWS with the usual credentials) instead of the emulators;
// LOCAL_STATE_DIR moves the local state (demo.json, secrets key) out of .local/.

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const stateDir = resolve(process.env.LOCAL_STATE_DIR ?? join(root, '.local'));
const port = Number(process.env.PORT ?? 3000);
// With PORT=0 (any free port) the sockets take any free port too: PORT + 1 would be port 1.
const socketPort = Number(process.env.SOCKET_PORT ?? (port === 0 ? 0 : port + 1));
const startedAt = Date.now();

async function main() {
  await ensureConsoleBuilt();
  const stack = await startLocalStack({
    stateDir,
    port,
    socketPort,
    ...(process.env.TABLE_NAME && { tableName: process.env.TABLE_NAME }),
    ...(process.env.DYNAMODB_ENDPOINT && { dynamoEndpoint: process.env.DYNAMODB_ENDPOINT }),
    ...(process.env.SQS_ENDPOINT && { sqsEndpoint: process.env.SQS_ENDPOINT }),
    onConsumerError: (error) => console.error('consumer error', error),
  });
  const demoFile = join(stateDir, 'demo.json');
  const { demo } = await ensureDemo(demoFile);
  // Where this run serves, for scripts and front ends (the ports may differ from the last run's).
  writeDemo(demoFile, { ...demo, apiUrl: stack.apiUrl!, socketUrl: stack.socketUrl! });
  const dev = demo.environments[0]!;

  const lines = [
    '',
    `Notification service running at ${stack.apiUrl} (ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s)`,
    `  Console: ${stack.apiUrl}/   (open it in a browser; sign in with the Development API key below)`,
    `  Inbox sockets: ${stack.socketUrl}   (@novu/js, <Inbox />: socketUrl '${stack.socketUrl}', socketOptions { socketType: 'cloud' })`,
    `  DynamoDB: ${stack.env.AWS_ENDPOINT_URL_DYNAMODB ?? 'AWS'}   SQS: ${stack.env.AWS_ENDPOINT_URL_SQS ?? 'AWS'}   ` +
      `table: ${stack.env.TABLE_NAME}`,
    '',
    `Demo organization ${demo.organizationId}   (sign in to the console with the Development API key)`,
    ...demo.environments.map(
      (e) => `  ${e.name.padEnd(12)} environment ${e.id}  API key ${e.apiKey}  application identifier ${e.applicationIdentifier}`,
    ),
    ...(demo.workflow ? [`  Demo workflow ${demo.workflow.workflowId} (id ${demo.workflow.id}) in Development`] : []),
    `  (also in ${demoFile})`,
    '',
    'Try it:',
    `  curl -s ${stack.apiUrl}/v1/integrations -H 'Authorization: ApiKey ${dev.apiKey}'`,
    `  curl -s ${stack.apiUrl}/v2/workflows -H 'Authorization: ApiKey ${dev.apiKey}'`,
    ...(demo.workflow
      ? [
          `  curl -s -X POST ${stack.apiUrl}/v1/events/trigger -H 'Authorization: ApiKey ${dev.apiKey}' ` +
            "-H 'Content-Type: application/json' \\",
          `    -d '{"name":"${demo.workflow.workflowId}",` +
            '"to":{"subscriberId":"demo-user","firstName":"Ada","email":"ada@example.com"},' +
            `"payload":{"author":"Bob","comment":"Looks good"}}'`,
          `  curl -s ${stack.apiUrl}/v1/subscribers/demo-user/notifications/feed -H 'Authorization: ApiKey ${dev.apiKey}'`,
          `  (the digest email follows 5 minutes later, in ${join(stateDir, 'outbox', 'email.jsonl')})`,
        ]
      : []),
    '',
    'A subscriber inbox (@novu/js or <Inbox />, docs/inbox.md):',
    `  applicationIdentifier: '${dev.applicationIdentifier}', backendUrl: '${stack.apiUrl}'`,
    `  socketUrl: '${stack.socketUrl}', socketOptions: { socketType: 'cloud' }   (live updates)`,
    `  curl -s -X POST ${stack.apiUrl}/v1/inbox/session -H 'Content-Type: application/json' ` +
      `-d '{"applicationIdentifier":"${dev.applicationIdentifier}","subscriber":"demo-user"}'`,
    '',
    `API description: ${stack.apiUrl}/openapi.json   Stop with Ctrl-C.`,
    '',
  ];
  console.log(lines.join('\n'));

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
