import { REMINDER_KINDS } from '@pecan/contract';
import type { AppContext } from '../context.js';
import type { MailMessage } from '../mail/mailer.js';

/**
 * Monthly forms: due_soon, overdue; the yearly forms 4 and 5 have their own kinds, so each is sent once apart.
 * sent_now: a monthly reminder staff sent by hand from the board (council/remind-now.ts), never by the job.
 */
export { REMINDER_KINDS };
export type ReminderKind = (typeof REMINDER_KINDS)[number];
/**
 * One reminder to send: a kind, its period and due date, the handler and user it goes to, and its mail. The mail is
 * composed only when the reminder is claimed: most passes find every due reminder sent already.
 */
export interface ReminderCandidate {
  kind: ReminderKind;
  periodId: string;
  dueDate: string;
  handler: { id: string; number: string; name: string };
  user: { id: string; mail: string; first_name: string };
  message(): MailMessage;
}

export const isOverdueKind = (kind: ReminderKind): boolean => kind.endsWith('overdue');

const escapeHtml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function mailOf(subject: string, paragraphs: string[], to: string): MailMessage {
  const text = `${paragraphs.join('\n\n')}\n`;
  const html =
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n<body>\n` +
    paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('\n') +
    '\n</body></html>\n';
  return { to, subject, text, html };
}

/**
 * The reminder of a yearly form: form 4 (the transfer agreements, due the 10th of the month after the first
 * transfer, 986.162) or form 5 (the year-end inventory, due 10 September, 986.175). `lines` say what is missing.
 */
export function yearlyReminderMail(
  ctx: AppContext,
  c: {
    kind: ReminderKind;
    form: 'Form 4' | 'Form 5';
    what: string;
    dueDate: string;
    handler: { number: string; name: string };
    user: { mail: string; first_name: string };
    lines: string[];
    path: string;
  },
): MailMessage {
  const link = `${ctx.config.publicUrl.replace(/\/+$/, '')}${c.path}`;
  const overdue = isOverdueKind(c.kind);
  const subject = overdue
    ? `Overdue: ${c.form} (${c.what}) of handler ${c.handler.number} was due ${c.dueDate}`
    : `Reminder: ${c.form} (${c.what}) of handler ${c.handler.number} is due ${c.dueDate}`;
  const greeting = c.user.first_name.trim() ? `Hello ${c.user.first_name.trim()},` : 'Hello,';
  const lead = overdue
    ? `The ${c.form} (${c.what}) of ${c.handler.name} (handler ${c.handler.number}) was due on ${c.dueDate}.`
    : `The ${c.form} (${c.what}) of ${c.handler.name} (handler ${c.handler.number}) is due on ${c.dueDate}.`;
  return mailOf(
    subject,
    [
      greeting,
      lead,
      ...c.lines,
      `File it in the Handler Portal: ${link}`,
      '—\nHandler Portal of the American Pecan Council',
    ],
    c.user.mail,
  );
}

/** The reminder e-mail: which month, which forms are still to certify, the due date and where to file. */
export function reminderMail(
  ctx: AppContext,
  c: {
    kind: ReminderKind;
    period: { title: string; due_date: string };
    handler: { number: string; name: string };
    user: { mail: string; first_name: string };
    missing: string[];
  },
): MailMessage {
  const link = `${ctx.config.publicUrl.replace(/\/+$/, '')}/dashboard`;
  const subject =
    c.kind === 'overdue'
      ? `Overdue: ${c.period.title} reports of handler ${c.handler.number} were due ${c.period.due_date}`
      : `Reminder: ${c.period.title} reports of handler ${c.handler.number} are due ${c.period.due_date}`;
  const greeting = c.user.first_name.trim() ? `Hello ${c.user.first_name.trim()},` : 'Hello,';
  const lead =
    c.kind === 'overdue'
      ? `The ${c.period.title} reports of ${c.handler.name} (handler ${c.handler.number}) were due on ${c.period.due_date} and are not all certified yet.`
      : `The ${c.period.title} reports of ${c.handler.name} (handler ${c.handler.number}) are due on ${c.period.due_date}.`;
  return mailOf(
    subject,
    [
      greeting,
      lead,
      `Still to certify: ${c.missing.join(', ')}.`,
      `File them in the Handler Portal: ${link}`,
      '—\nHandler Portal of the American Pecan Council',
    ],
    c.user.mail,
  );
}
