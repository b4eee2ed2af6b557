import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local endpoint for the webhooks the bench subscribes: answers every POST 204 and counts them.

export interface WebhookReceiver {
  server: Server;
  url: string;
  posts: () => number;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let posts = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, posts: () => posts };
}
