import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

// Who serves a local port, where the system says (Linux's /proc). The local stack asks before it
// takes the emulator answering on a port it drew for its JVM as the one it started: two stacks
// that draw the same port at once both get answers from the one JVM that bound it. Elsewhere the
// answer is "cannot tell", and the stack trusts the answer as it always did.

/** `st` of a listening socket in /proc/net/tcp{,6}. */
const LISTEN = '0A';

/** Inodes of the sockets listening on `port` (IPv4 and IPv6); undefined without /proc. */
function listeningInodes(port: number): Set<string> | undefined {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  let read = false;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    read = true;
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      if (state === LISTEN && local?.endsWith(hexPort) && inode) inodes.add(inode);
    }
  }
  return read ? inodes : undefined;
}

/** Whether one of the process's open descriptors is one of these sockets (false when it cannot be read). */
function holdsSocket(pid: number, inodes: ReadonlySet<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      return inode !== undefined && inodes.has(inode);
    } catch {
      return false; // closed meanwhile
    }
  });
}

/** The processes the process started, by all its threads; undefined where the kernel does not list them. */
function childrenOf(pid: number): number[] | undefined {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return undefined;
  }
}

/**
 * Whether the process, or one it started (a `java` launcher that forks), holds the socket
 * listening on `port`: undefined where the system does not say.
 */
export function servesPort(pid: number, port: number): boolean | undefined {
  const inodes = listeningInodes(port);
  if (!inodes) return undefined;
  if (inodes.size === 0) return false;
  const pending = [pid];
  let complete = true;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (holdsSocket(next, inodes)) return true;
    const children = childrenOf(next);
    if (children) pending.push(...children);
    else complete = false;
  }
  return complete ? false : undefined;
}
