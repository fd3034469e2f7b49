/**
 * Outgoing email over SMTP (nodemailer). One pooled transport per Runtime, built by createRuntime from
 * SMTP_URL (`smtp://user:pass@host:port`, `smtps://` for implicit TLS); null when SMTP_URL is unset.
 * Paging notifications send through it; password reset and invitations will too (`sendMail`).
 * This module imports nothing from the runtime, so the runtime can build it without a loop.
 */
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** `<id@host>`: set it to thread later mails to this one (they name it in inReplyTo/references). */
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  headers?: Record<string, string>;
}

export interface SentMail {
  messageId: string;
  /** What the server answered to the DATA command (e.g. `250 OK: queued`). */
  response: string;
}

/** The runtime's mail sender. */
export interface Mailer {
  readonly from: string;
  send(message: MailMessage, timeoutMs?: number): Promise<SentMail>;
  close(): void;
}

/** Thrown when mail is needed and SMTP_URL is unset. */
export class MailNotConfiguredError extends Error {
  constructor() {
    super('Email is not configured: set SMTP_URL (e.g. smtp://user:pass@mail.example.com:587) and SMTP_FROM.');
  }
}

/** A pooled SMTP sender for `smtpUrl`, or null without one. */
export function createMailer(settings: { smtpUrl?: string; smtpFrom: string; sendTimeoutMs: number }): Mailer | null {
  if (!settings.smtpUrl) return null;
  const url = new URL(settings.smtpUrl);
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: 5,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: settings.sendTimeoutMs,
    greetingTimeout: settings.sendTimeoutMs,
    socketTimeout: settings.sendTimeoutMs,
    // A local relay (127.0.0.1) usually has no certificate for its name; anything else is verified.
    tls: { rejectUnauthorized: !['127.0.0.1', 'localhost', '::1', '[::1]'].includes(url.hostname) },
  });
  return {
    from: settings.smtpFrom,
    async send(message, timeoutMs = settings.sendTimeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`SMTP send timed out after ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        const info = await Promise.race([
          transport.sendMail({
            from: settings.smtpFrom,
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
            messageId: message.messageId,
            inReplyTo: message.inReplyTo,
            references: message.references,
            headers: message.headers,
          }),
          deadline,
        ]);
        return { messageId: String(info.messageId), response: String(info.response ?? '') };
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => transport.close(),
  };
}

/** Sends one email through the runtime's SMTP transport; MailNotConfiguredError without SMTP_URL. */
export async function sendMail(rt: { mailer: Mailer | null }, message: MailMessage): Promise<SentMail> {
  if (!rt.mailer) throw new MailNotConfiguredError();
  return rt.mailer.send(message);
}
