import { createHash, randomBytes } from 'node:crypto';

// Record ids look like the reference's (24 hex characters, time first), so clients that check
// or sort ids keep working, and ids sort by creation time inside DynamoDB sort keys.
const ID_PATTERN = /^[0-9a-f]{24}$/;
let counter = randomBytes(3).readUIntBE(0, 3);
const processPart = randomBytes(5).toString('hex');

export function newId(now = Date.now()): string {
  counter = (counter + 1) % 0xffffff;
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + processPart + counter.toString(16).padStart(6, '0');
}

/**
 * An id made again the same from the same `seed` and time (a record that a repeated run must find
 * rather than make twice): the time first, like every id, to the millisecond (ids of one second
 * keep their order), then 13 hex characters of the seed's hash.
 */
export function idOf(seed: string, at: number): string {
  const seconds = Math.floor(at / 1000)
    .toString(16)
    .padStart(8, '0');
  const millis = (at % 1000).toString(16).padStart(3, '0');
  return seconds + millis + createHash('sha256').update(seed).digest('hex').slice(0, 13);
}

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** When an id was made (to the second): ids start with their creation time. */
export function timeOfId(id: string): Date {
  return new Date(parseInt(id.slice(0, 8), 16) * 1000);
}
