import type { AppContext } from '../context.js';
import type { MailMessage } from '../mail/mailer.js';

export type ReminderKind = 'due_soon' | 'overdue';

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => (
  { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c] as string
));

/** The reminder e-mail: which month, which forms are still to certify, the due date and where to file. */
export function reminderMail(ctx: AppContext, c: {
  kind: ReminderKind; period: { title: string; due_date: string }; handler: { number: string; name: string };
  user: { mail: string; first_name: string }; missing: string[];
}): MailMessage {
  const link = `${ctx.config.publicUrl.replace(/\/+$/, '')}/dashboard`;
  const subject = c.kind === 'overdue'
    ? `Overdue: ${c.period.title} reports of handler ${c.handler.number} were due ${c.period.due_date}`
    : `Reminder: ${c.period.title} reports of handler ${c.handler.number} are due ${c.period.due_date}`;
  const greeting = c.user.first_name.trim() ? `Hello ${c.user.first_name.trim()},` : 'Hello,';
  const lead = c.kind === 'overdue'
    ? `The ${c.period.title} reports of ${c.handler.name} (handler ${c.handler.number}) were due on ${c.period.due_date} and are not all certified yet.`
    : `The ${c.period.title} reports of ${c.handler.name} (handler ${c.handler.number}) are due on ${c.period.due_date}.`;
  const paragraphs = [greeting, lead, `Still to certify: ${c.missing.join(', ')}.`, `File them in the Handler Portal: ${link}`,
    '—\nHandler Portal of the American Pecan Council'];
  const text = `${paragraphs.join('\n\n')}\n`;
  const html = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n<body>\n`
    + paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('\n') + '\n</body></html>\n';
  return { to: c.user.mail, subject, text, html };
}
