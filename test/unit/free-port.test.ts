import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRangeStart, freePort } from '#infra/local/emulators.ts';

// The ports handed to listeners that bind later (npm start's child, DynamoDB Local's JVM) come from
// below the ephemeral range, so no outgoing connection made in between can take them.

const listen = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });

describe('freePort', () => {
  it('draws free ports below the ephemeral range (or takes the kernel’s choice where the range leaves no room)', async () => {
    const roomBelow = ephemeralRangeStart() > 20_000;
    const ports = await Promise.all(Array.from({ length: 10 }, () => freePort()));
    for (const port of ports) {
      if (roomBelow) {
        expect(port).toBeGreaterThanOrEqual(20_000);
        expect(port).toBeLessThan(ephemeralRangeStart());
      }
      await listen(port);
    }
  });

  it.runIf(process.platform === 'linux')('takes the ephemeral range from the kernel', () => {
    const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    expect(ephemeralRangeStart()).toBe(Number(start));
  });
});
