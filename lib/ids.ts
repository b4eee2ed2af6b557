import { createHash, randomBytes } from 'node:crypto';

// Record ids look like the reference's (24 hex characters, time first), so clients that check
// or sort ids keep working, and ids sort by creation time inside DynamoDB sort keys. The time is
// to the millisecond (8 hex of seconds, 3 of milliseconds), so that a record made from the same
// instant as its `createdAt` (pass it as `now`) sorts among others as its createdAt does: lists
// kept in id order are in createdAt order. Then 7 hex of this process and a 6-hex counter.
const ID_PATTERN = /^[0-9a-f]{24}$/;
let counter = randomBytes(3).readUIntBE(0, 3);
const processPart = randomBytes(4).toString('hex').slice(0, 7);

/** A new id; `now` is the instant the record is created at (the one its createdAt says). */
export function newId(now = Date.now()): string {
  counter = (counter + 1) % 0xffffff;
  return timePart(now) + processPart + counter.toString(16).padStart(6, '0');
}

/** 11 hex characters: the seconds, then the milliseconds, of `at`. */
function timePart(at: number): string {
  const seconds = Math.floor(at / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + (at % 1000).toString(16).padStart(3, '0');
}

/**
 * An id made again the same from the same `seed` and time (a record that a repeated run must find
 * rather than make twice): the time first, like every id, to the millisecond (ids of one second
 * keep their order), then 13 hex characters of the seed's hash.
 */
export function idOf(seed: string, at: number): string {
  return timePart(at) + createHash('sha256').update(seed).digest('hex').slice(0, 13);
}

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** When an id was made (to the second): ids start with their creation time. */
export function timeOfId(id: string): Date {
  return new Date(parseInt(id.slice(0, 8), 16) * 1000);
}
