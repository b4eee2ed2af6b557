import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { servesPort } from '#infra/local/port-owner.ts';

// Whose socket listens on a port, as the local stack asks before it takes an emulator that
// answers on its port as the one it started (infra/local/emulators.ts).

const listening = async (server: Server): Promise<number> => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as { port: number }).port;
};

describe.runIf(process.platform === 'linux')('servesPort', () => {
  const ours = createServer();
  // A child that listens and says on which port: a process this one started.
  const child = spawn(
    process.execPath,
    ['-e', "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => console.log(s.address().port))"],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  afterAll(() => {
    child.kill('SIGKILL');
    ours.close();
  });
  const childPort = once(child.stdout!, 'data').then(([chunk]) => Number(String(chunk).trim()));

  it('says a process serves the port it listens on, and not a port another process listens on', async () => {
    const port = await listening(ours);
    expect(servesPort(process.pid, port)).toBe(true);
    expect(servesPort(child.pid!, await childPort)).toBe(true);
    expect(servesPort(child.pid!, port)).toBe(false);
  });

  it('counts the sockets of the processes a process started as its own (a launcher that forks)', async () => {
    expect(servesPort(process.pid, await childPort)).toBe(true);
  });

  it('says no process serves a port nobody listens on', async () => {
    const server = createServer();
    const port = await listening(server);
    await new Promise((resolve) => server.close(resolve));
    expect(servesPort(process.pid, port)).toBe(false);
  });
});
