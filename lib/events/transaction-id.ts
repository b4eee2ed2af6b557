import { randomInt } from 'node:crypto';

// Generated transactionIds look like the reference's: `txn_`, the time in seconds as 8 hex
// digits (so they sort by time), then 12 random base-36 characters.

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

export function newTransactionId(now = Date.now()): string {
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0');
  let random = '';
  for (let i = 0; i < 12; i++) random += BASE36[randomInt(BASE36.length)];
  return `txn_${seconds}${random}`;
}
