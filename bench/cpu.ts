import { readdirSync, readFileSync } from 'node:fs';

// CPU time of this process (the handlers, both consumers and fauxqs run in it) and of the
// DynamoDB Local JVM it started: which of the two a timed section saturates says what bounds it.

const TICKS_PER_SECOND = 100;

/** utime + stime of a process, in seconds, from /proc (Linux); undefined elsewhere. */
function procSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The JVM child of this process (DynamoDB Local), found by parent pid and command name. */
function dynamoDbLocalPid(): number | undefined {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [head, rest] = [stat.slice(0, stat.indexOf(') ')), stat.slice(stat.indexOf(') ') + 2)];
      if (head.endsWith('(java') && Number(rest.split(' ')[1]) === process.pid) return Number(entry);
    }
  } catch {
    return undefined;
  }
  return undefined;
}

export interface CpuSample {
  nodeSeconds: number;
  dynamoDbLocalSeconds?: number;
}

export function cpuNow(): CpuSample {
  const usage = process.cpuUsage();
  const pid = dynamoDbLocalPid();
  return { nodeSeconds: (usage.user + usage.system) / 1e6, dynamoDbLocalSeconds: pid === undefined ? undefined : procSeconds(pid) };
}

/** Share of one core each side used between two samples over `seconds` of wall time. */
export function coresUsed(before: CpuSample, after: CpuSample, seconds: number) {
  return {
    node: (after.nodeSeconds - before.nodeSeconds) / seconds,
    dynamoDbLocal:
      before.dynamoDbLocalSeconds === undefined || after.dynamoDbLocalSeconds === undefined
        ? undefined
        : (after.dynamoDbLocalSeconds - before.dynamoDbLocalSeconds) / seconds,
  };
}

/** CPU ms of this process and of DynamoDB Local, for one unit of work. */
export interface CpuBySide {
  node: number;
  dynamoDbLocal: number;
}

/** CPU time of each side per delivery (ms), from the cores they used at a delivery rate. */
export function cpuMsPerDeliveryBySide(cores: ReturnType<typeof coresUsed>, deliveriesPerSec: number): CpuBySide | undefined {
  if (cores.dynamoDbLocal === undefined || deliveriesPerSec <= 0) return undefined;
  return { node: (cores.node * 1000) / deliveriesPerSec, dynamoDbLocal: (cores.dynamoDbLocal * 1000) / deliveriesPerSec };
}

/** CPU time of both sides per delivery (ms), from the cores they used at a delivery rate. */
export function cpuMsPerDelivery(cores: ReturnType<typeof coresUsed>, deliveriesPerSec: number): number | undefined {
  const bySide = cpuMsPerDeliveryBySide(cores, deliveriesPerSec);
  return bySide && bySide.node + bySide.dynamoDbLocal;
}
