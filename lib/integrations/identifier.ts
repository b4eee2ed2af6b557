import { randomBytes } from 'node:crypto';

/** A readable, unique-enough identifier for a new integration: `sendgrid-k3j9x2`. */
export function newIdentifier(base: string): string {
  const slug = base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'integration'}-${randomBytes(3).toString('hex')}`;
}
