import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { lazy } from '../../lazy.ts';
import { ForbiddenAddressError, resolveGuarded } from '../../net/address-guard.ts';
import { objectOr, stringValues } from '../deep-merge.ts';
import { ProviderError, type ConnectionTarget, type Delivery, type DeliveryProvider, type DeliveryResult } from '../provider.ts';
import { TransientError, withRetries } from '../retry.ts';
import { emailMessage } from './message.ts';

// Custom SMTP (`nodemailer`): one connection per send, closed after it. SMTP answers 4xx for
// "try later" and 5xx for "never"; a connection that fails or times out is tried again too.
// Trigger provider data adds headers only: nodemailer reads files and URLs named in several of
// its options, which callers must not reach.
// nodemailer is loaded by the first SMTP send or check (lib/lazy.ts), whole (createTransport):
// it is the largest package of the jobs consumer and only this provider uses it, so it ships in
// the lazy-packages layer as one file of its own, not in any function's bundle.

const NAME = 'SMTP server';
const CHECK_TIMEOUT_MS = 5_000;
const TRANSIENT_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS']);

/**
 * The transport's options, its host resolved through the SSRF guard (lib/net/address-guard.ts):
 * the SMTP host is the customer's. nodemailer resolves names itself, with no hook, so it is given
 * the checked address, and the name for TLS (`servername`).
 */
async function transportOptions(c: Record<string, unknown>, timeoutMs: number): Promise<SMTPTransport.Options> {
  const host = String(c.host ?? '');
  let address: string;
  try {
    address = await resolveGuarded(host);
  } catch (error) {
    if (error instanceof ForbiddenAddressError) throw new ProviderError(`${NAME} was not called: ${error.message}`, { error: error.code });
    throw Object.assign(error as Error, { code: 'EDNS' });
  }
  const dkim =
    c.domain && c.secretKey && c.accountSid
      ? { dkim: { domainName: String(c.domain), privateKey: String(c.secretKey), keySelector: String(c.accountSid) } }
      : {};
  return {
    host: address,
    ...(address !== host && { servername: host }),
    port: Number(c.port ?? 587),
    secure: c.secure === true,
    requireTLS: c.requireTls === true,
    ignoreTLS: c.ignoreTls === true,
    ...(c.user ? { auth: { user: String(c.user), pass: String(c.password ?? '') } } : {}),
    ...(c.tlsOptions ? { tls: c.tlsOptions as object } : {}),
    ...dkim,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  };
}

const nodemailer = lazy('nodemailer', async () => (await import('nodemailer')).default);

/** nodemailer's mailer over its SMTP transport, for these options. */
async function mailer(options: SMTPTransport.Options) {
  return (await nodemailer.load()).createTransport(options);
}

interface SmtpFailure extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
}

function failure(error: unknown): ProviderError | TransientError {
  const e = error as SmtpFailure;
  const raw = {
    error: e.message,
    ...(e.code && { code: e.code }),
    ...(e.responseCode && { responseCode: e.responseCode }),
    ...(e.response && { response: e.response }),
    ...(e.command && { command: e.command }),
  };
  const problem = new ProviderError(`${NAME} refused the message: ${e.response ?? e.message}`, raw);
  const transient =
    (e.responseCode !== undefined && e.responseCode >= 400 && e.responseCode < 500) ||
    (e.responseCode === undefined && TRANSIENT_CODES.has(e.code ?? ''));
  return transient ? new TransientError(problem) : problem;
}

/**
 * Sends the delivery over SMTP with these settings (nodemailer credential names: host, port,
 * secure, requireTls, ignoreTls, user, password, tlsOptions, DKIM): the SMTP provider's own
 * credentials, or what another SMTP-based provider (outlook365, emailjs) makes of its own.
 */
export async function sendOverSmtp(delivery: Delivery, settings: Record<string, unknown>): Promise<DeliveryResult> {
  const mail = emailMessage(delivery);
  const passthrough = objectOr(objectOr(delivery.providerData)._passthrough);
  const headers = { ...mail.headers, ...stringValues(passthrough.headers) };
  return withRetries(async (timeoutMs) => {
    let options: SMTPTransport.Options;
    try {
      options = await transportOptions(settings, timeoutMs);
    } catch (error) {
      throw error instanceof ProviderError ? error : failure(error);
    }
    const smtp = await mailer(options);
    try {
      const info = await smtp.sendMail({
        from: { name: mail.from.name ?? '', address: mail.from.email },
        to: mail.to,
        ...(mail.cc.length > 0 && { cc: mail.cc }),
        ...(mail.bcc.length > 0 && { bcc: mail.bcc }),
        ...(mail.replyTo && { replyTo: mail.replyTo }),
        subject: mail.subject,
        html: mail.html,
        ...(mail.text && { text: mail.text }),
        headers,
      });
      return {
        id: info.messageId,
        raw: { messageId: info.messageId, accepted: info.accepted, rejected: info.rejected, response: info.response },
      };
    } catch (error) {
      throw failure(error);
    } finally {
      smtp.close();
    }
  });
}

/** Connects, greets and authenticates (nodemailer's verify), then hangs up: nothing is sent. */
export async function verifySmtp(settings: Record<string, unknown>): Promise<void> {
  const smtp = await mailer(await transportOptions(settings, CHECK_TIMEOUT_MS));
  try {
    await smtp.verify();
  } finally {
    smtp.close();
  }
}

export const checkSmtpConnection = (integration: ConnectionTarget): Promise<void> => verifySmtp(integration.credentials);

export const smtpProvider: DeliveryProvider = { send: (delivery) => sendOverSmtp(delivery, delivery.integration.credentials) };
