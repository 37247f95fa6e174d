import type { MailMessage } from './mailer.js';

/**
 * The portal's e-mails, in English: each template gives the same words as plain text and as simple HTML.
 * Everything inserted into the HTML is escaped.
 */
const PORTAL = 'Handler Portal of the American Pecan Council';

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => (
  { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c] as string
));

/** A paragraph is a list of pieces: plain text, or a link shown with its own address. */
type Piece = string | { link: string };
type Paragraph = Piece[];

function render(to: string, subject: string, greeting: string, paragraphs: Paragraph[]): MailMessage {
  const all: Paragraph[] = [[greeting], ...paragraphs, ['—', '\n', PORTAL]];
  const text = all.map((p) => p.map((x) => (typeof x === 'string' ? x : x.link)).join('')).join('\n\n') + '\n';
  const htmlBody = all.map((p) => `<p>${p.map((x) => (typeof x === 'string'
    ? escapeHtml(x).replace(/\n/g, '<br>')
    : `<a href="${escapeHtml(x.link)}">${escapeHtml(x.link)}</a>`)).join('')}</p>`).join('\n');
  const html = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n`
    + `<body style="font-family: Arial, sans-serif; font-size: 15px; line-height: 1.5; color: #222;">\n${htmlBody}\n</body></html>\n`;
  return { to, subject, text, html };
}

const hello = (name: string): string => (name.trim() ? `Hello ${name.trim()},` : 'Hello,');

export function accountApprovedMail(p: { to: string; name: string; username: string; signInUrl: string }): MailMessage {
  return render(p.to, 'Your Handler Portal account is approved', hello(p.name), [
    ['The council has approved your account request. You can now sign in with the username ', p.username,
      ' and the password you chose:'],
    [{ link: p.signInUrl }],
  ]);
}

export function accountRefusedMail(p: { to: string; name: string; reason?: string | null }): MailMessage {
  const reason: Paragraph[] = p.reason?.trim() ? [['The council gave this reason:', '\n', p.reason.trim()]] : [];
  return render(p.to, 'Your Handler Portal account request', hello(p.name), [
    ['The council has not approved your request for a Handler Portal account.'],
    ...reason,
    ['If you think this is a mistake, please contact the council.'],
  ]);
}

/** To someone whose address already has an account, instead of a second account (the answer to the form is the same). */
export function accountExistsMail(p: { to: string; forgotPasswordUrl: string }): MailMessage {
  return render(p.to, 'Your Handler Portal account request', hello(''), [
    ['Someone asked for a Handler Portal account with this e-mail address, but an account already uses it, so no new account was made.'],
    ['If you forgot your password, you can choose a new one here:'],
    [{ link: p.forgotPasswordUrl }],
    ['If you did not ask for an account, you can ignore this message.'],
  ]);
}

export function accountRequestedMail(p: { to: string; name: string; username: string; email: string; handler: string; reviewUrl: string }): MailMessage {
  return render(p.to, `New Handler Portal account request: ${p.username}`, hello(''), [
    [`${p.name} (${p.email}) asks for the account ${p.username} at handler ${p.handler}.`],
    ['Review pending requests here:'],
    [{ link: p.reviewUrl }],
  ]);
}

export function passwordResetMail(p: { to: string; name: string; link: string; validMinutes: number }): MailMessage {
  return render(p.to, 'Reset your Handler Portal password', hello(p.name), [
    ['Someone (we hope you) asked to reset the password of your Handler Portal account. To choose a new password, open this link:'],
    [{ link: p.link }],
    [`The link works once and expires in ${p.validMinutes} minutes. Choosing a new password signs you out everywhere.`],
    ['If you did not ask for this, you can ignore this message: your password stays as it is.'],
  ]);
}
