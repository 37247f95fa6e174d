import type { MailMessage } from './mailer.js';

/**
 * The portal's e-mails, in English: each template gives the same words as plain text and as simple HTML.
 * Everything inserted into the HTML is escaped.
 */
const PORTAL = 'Handler Portal of the American Pecan Council';

const escapeHtml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** A paragraph is a list of pieces: plain text, or a link shown with its own address. */
type Piece = string | { link: string };
type Paragraph = Piece[];

function render(to: string, subject: string, greeting: string, paragraphs: Paragraph[]): MailMessage {
  const all: Paragraph[] = [[greeting], ...paragraphs, ['—', '\n', PORTAL]];
  const text = all.map((p) => p.map((x) => (typeof x === 'string' ? x : x.link)).join('')).join('\n\n') + '\n';
  const htmlBody = all
    .map(
      (p) =>
        `<p>${p
          .map((x) =>
            typeof x === 'string'
              ? escapeHtml(x).replace(/\n/g, '<br>')
              : `<a href="${escapeHtml(x.link)}">${escapeHtml(x.link)}</a>`,
          )
          .join('')}</p>`,
    )
    .join('\n');
  const html =
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n` +
    `<body style="font-family: Arial, sans-serif; font-size: 15px; line-height: 1.5; color: #222;">\n${htmlBody}\n</body></html>\n`;
  return { to, subject, text, html };
}

const hello = (name: string): string => (name.trim() ? `Hello ${name.trim()},` : 'Hello,');

export function accountApprovedMail(p: { to: string; name: string; username: string; signInUrl: string }): MailMessage {
  return render(p.to, 'Your Handler Portal account is approved', hello(p.name), [
    [
      'The council has approved your account request. You can now sign in with the username ',
      p.username,
      ' and the password you chose:',
    ],
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

/**
 * To someone whose address already has an account, instead of a second account (the answer to the form is the same).
 */
export function accountExistsMail(p: { to: string; forgotPasswordUrl: string }): MailMessage {
  return render(p.to, 'Your Handler Portal account request', hello(''), [
    [
      'Someone asked for a Handler Portal account with this e-mail address, but an account already uses it, so no new account was made.',
    ],
    ['If you forgot your password, you can choose a new one here:'],
    [{ link: p.forgotPasswordUrl }],
    ['If you did not ask for an account, you can ignore this message.'],
  ]);
}

export function accountRequestedMail(p: {
  to: string;
  name: string;
  username: string;
  email: string;
  handler: string;
  reviewUrl: string;
}): MailMessage {
  return render(p.to, `New Handler Portal account request: ${p.username}`, hello(''), [
    [`${p.name} (${p.email}) asks for the account ${p.username} at handler ${p.handler}.`],
    ['Review pending requests here:'],
    [{ link: p.reviewUrl }],
  ]);
}

export function passwordResetMail(p: { to: string; name: string; link: string; validMinutes: number }): MailMessage {
  return render(p.to, 'Reset your Handler Portal password', hello(p.name), [
    [
      'Someone (we hope you) asked to reset the password of your Handler Portal account. To choose a new password, open this link:',
    ],
    [{ link: p.link }],
    [`The link works once and expires in ${p.validMinutes} minutes. Choosing a new password signs you out everywhere.`],
    ['If you did not ask for this, you can ignore this message: your password stays as it is.'],
  ]);
}

/** To the address a sign-up gave: the link proves the address reaches the applicant (docs/SECURITY.md, "Identity"). */
export function confirmSignUpMail(p: {
  to: string;
  name: string;
  username: string;
  link: string;
  validHours: number;
}): MailMessage {
  return render(p.to, 'Confirm your e-mail address for the Handler Portal', hello(p.name), [
    [
      `You asked for the Handler Portal account ${p.username}. To confirm that this e-mail address is yours, open this link:`,
    ],
    [{ link: p.link }],
    [`The link works once, for ${p.validHours} hours. The council reviews your request in the meantime.`],
    ['If you did not ask for an account, you can ignore this message.'],
  ]);
}

/** To the address a sign-up gave, when its username is taken: the form answered as always, so the mail tells. */
export function usernameTakenMail(p: { to: string; name: string; username: string; signUpUrl: string }): MailMessage {
  return render(p.to, 'Your Handler Portal account request', hello(p.name), [
    [
      `You asked for a Handler Portal account with the username ${p.username}, but that username is taken, so no account was made.`,
    ],
    ['Please ask again with another username:'],
    [{ link: p.signUpUrl }],
    ['If you did not ask for an account, you can ignore this message.'],
  ]);
}

/** To the new address of an e-mail change: it changes only once this link is followed. */
export function confirmEmailChangeMail(p: {
  to: string;
  name: string;
  username: string;
  link: string;
  validHours: number;
}): MailMessage {
  return render(p.to, 'Confirm your new e-mail address for the Handler Portal', hello(p.name), [
    [
      `You asked to use this e-mail address for the Handler Portal account ${p.username}. To confirm it, open this link:`,
    ],
    [{ link: p.link }],
    [`The link works once, for ${p.validHours} hours. Until then your account keeps its old address.`],
    ['If you did not ask for this, you can ignore this message.'],
  ]);
}

/** To the old address of an e-mail change, when it is asked for: its owner learns of it before it takes effect. */
export function emailChangeNoticeMail(p: { to: string; name: string; username: string; newMail: string }): MailMessage {
  return render(p.to, 'Your Handler Portal e-mail address is being changed', hello(p.name), [
    [
      `Someone signed in as ${p.username}, with its password, asked to change the account's e-mail address to ${p.newMail}. It changes when a link sent to that address is opened.`,
    ],
    ['If this was not you, change your password at once and tell the council: your password is known to someone else.'],
  ]);
}

/** To a user whose sign-in is held back after wrong passwords: the link lets them in again from anywhere. */
export function accountUnlockMail(p: {
  to: string;
  name: string;
  username: string;
  link: string;
  validMinutes: number;
}): MailMessage {
  return render(p.to, 'Sign-in to your Handler Portal account was held back', hello(p.name), [
    [`Several wrong passwords were given for the account ${p.username}, so sign-in to it is slowed down for a while.`],
    ['If that was you, open this link to sign in again at once (it also works from another network):'],
    [{ link: p.link }],
    [
      `The link works once, for ${p.validMinutes} minutes. If it was not you, your account is safe as long as your password is strong; you may change it after you sign in.`,
    ],
  ]);
}
