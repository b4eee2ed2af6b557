import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// API Gateway's HTTP API sends a function's answer as it is: it compresses nothing. The console's
// scripts and styles shrink to a quarter in Brotli or gzip, so the function compresses them
// itself for a browser that accepts it (once per file and container: the files never change).

export type Encoding = 'br' | 'gzip';

/** Smaller texts gain less than the header costs. */
const MIN_BYTES = 1024;

/** The encoding to answer `accept-encoding` with: Brotli before gzip; none when neither is accepted. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      // `br;q=0` refuses it.
      .filter(([, q]) => !/^\s*q=0(\.0*)?\s*$/.test(q ?? ''))
      .map(([name]) => name!.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

/** `text` compressed, or undefined when it is too small to be worth it. */
export function compress(text: string, encoding: Encoding): Buffer | undefined {
  const plain = Buffer.from(text, 'utf8');
  if (plain.length < MIN_BYTES) return undefined;
  // Quality 5: within a few per cent of the best Brotli at a fraction of its time, on a cold start.
  return encoding === 'br' ? brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(plain, { level: 9 });
}
