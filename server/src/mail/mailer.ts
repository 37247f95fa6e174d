import nodemailer, { type Transporter } from 'nodemailer';
import type { AppContext } from '../context.js';

/** One e-mail: plain text for every reader, and a simple HTML version of the same words. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where mail goes without SMTP, and where sending failures are reported: the server's (pino) log. */
export interface MailLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** The process-wide logger used when a caller has no request logger at hand. */
const consoleLog: MailLog = {
  info: (obj, msg) => console.info(msg, JSON.stringify(obj)),
  error: (obj, msg) => console.error(msg, obj),
};

/** One pooled transport per SMTP URL, made on first use. */
const transports = new Map<string, Transporter>();

function transportFor(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport(url);
    transports.set(url, transport);
  }
  return transport;
}

/**
 * Sends a message over SMTP (`SMTP_URL`, e.g. smtp://user:pass@mail.example.org:587). With no SMTP configured the
 * message is written to the log at info level instead, link included, so a development setup still works.
 * Call it only after the transaction that caused the message has committed.
 */
export async function sendMail(ctx: AppContext, message: MailMessage, log: MailLog = consoleLog): Promise<void> {
  if (!ctx.config.smtpUrl) {
    log.info(
      { mail: { to: message.to, subject: message.subject, text: message.text } },
      'mail not sent (no SMTP_URL): message follows',
    );
    return;
  }
  await transportFor(ctx.config.smtpUrl).sendMail({
    from: ctx.config.mailFrom,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
  });
}

/**
 * Sends and never throws: a failure is logged with the recipient (not the body, which may hold a link). Returns
 * whether the message went out (or was logged for lack of SMTP).
 */
export async function trySendMail(ctx: AppContext, message: MailMessage, log: MailLog = consoleLog): Promise<boolean> {
  try {
    await sendMail(ctx, message, log);
    return true;
  } catch (err) {
    log.error({ err, mail: { to: message.to, subject: message.subject } }, 'sending mail failed');
    return false;
  }
}

/** Closes the pooled SMTP connections (tests, shutdown). */
export function closeMailTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}
