import nodemailer from 'nodemailer';
import { BadRequestError } from '../errors.ts';

// `check: true` on create or update tests the provider connection before saving. Only providers
// whose connection can be tested without sending anything have a check; for the others there is
// nothing to test and the flag changes nothing (as in the reference, where only email checks).

type Checker = (credentials: Record<string, unknown>) => Promise<void>;

const CHECK_TIMEOUT_MS = 5_000;

const checkers: Record<string, Checker> = {
  // SMTP: connect, greet and authenticate (nodemailer's verify), then hang up.
  nodemailer: async (c) => {
    const transport = nodemailer.createTransport({
      host: String(c.host ?? ''),
      port: Number(c.port ?? 587),
      secure: c.secure === true,
      requireTLS: c.requireTls === true,
      ignoreTLS: c.ignoreTls === true,
      ...(c.user ? { auth: { user: String(c.user), pass: String(c.password ?? '') } } : {}),
      ...(c.tlsOptions ? { tls: c.tlsOptions as object } : {}),
      connectionTimeout: CHECK_TIMEOUT_MS,
      greetingTimeout: CHECK_TIMEOUT_MS,
      socketTimeout: CHECK_TIMEOUT_MS,
    });
    try {
      await transport.verify();
    } finally {
      transport.close();
    }
  },
};

export async function checkConnection(providerId: string, credentials: Record<string, unknown>): Promise<void> {
  const checker = checkers[providerId];
  if (!checker) return;
  try {
    await checker(credentials);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BadRequestError(`Integration check failed for ${providerId}: ${reason}`);
  }
}
