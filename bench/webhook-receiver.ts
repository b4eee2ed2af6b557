import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local endpoint for the webhooks the bench subscribes: answers every POST 204 and counts them,
// keeping the first body it received (a real event, for bench/webhook-alone.ts).

export interface WebhookReceiver {
  server: Server;
  url: string;
  posts: () => number;
  firstBody: () => string | undefined;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let posts = 0;
  let first: string | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    if (first === undefined) req.on('data', (chunk: Buffer) => chunks.push(chunk));
    else req.resume();
    req.on('end', () => {
      posts++;
      if (first === undefined && chunks.length > 0) first = Buffer.concat(chunks).toString('utf8');
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, posts: () => posts, firstBody: () => first };
}
