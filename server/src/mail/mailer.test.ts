import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { testConfig } from '../test-support/databases.js';
import { sendMail, trySendMail, type MailLog } from './mailer.js';
import { accountRefusedMail, passwordResetMail } from './templates.js';
import { firstLink, startTestSmtpServer, type TestSmtpServer } from './test-smtp.js';

const contextWith = (smtpUrl?: string): AppContext => ({ config: testConfig({ smtpUrl }) }) as AppContext;

function recordingLog() {
  const lines: Array<{ level: string; obj: object; msg: string }> = [];
  const log: MailLog = {
    info: (obj, msg) => lines.push({ level: 'info', obj, msg }),
    error: (obj, msg) => lines.push({ level: 'error', obj, msg }),
  };
  return { log, lines };
}

describe('mail', () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('sends plain text and HTML over SMTP from MAIL_FROM', async () => {
    const message = passwordResetMail({
      to: 'alice@example.com',
      name: 'Alice',
      link: 'http://portal.test/resetpassword?token=abc',
      validMinutes: 60,
    });
    await sendMail(contextWith(smtp.url), message);
    const received = await smtp.waitFor((m) => m.to.includes('alice@example.com'));
    expect(received.subject).toBe('Reset your Handler Portal password');
    expect(received.raw).toMatch(/^From: Handler Portal <no-reply@handler-portal\.local>/m);
    expect(firstLink(received)).toBe('http://portal.test/resetpassword?token=abc');
    expect(received.text).toContain('Hello Alice,');
    expect(received.html).toContain('<a href="http://portal.test/resetpassword?token=abc">');
  });

  it('writes the message to the log at info level when no SMTP is configured', async () => {
    const { log, lines } = recordingLog();
    const message = passwordResetMail({
      to: 'bob@example.com',
      name: 'Bob',
      link: 'http://portal.test/resetpassword?token=xyz',
      validMinutes: 60,
    });
    await sendMail(contextWith(undefined), message, log);
    expect(lines).toHaveLength(1);
    expect(lines[0].level).toBe('info');
    expect(lines[0].obj).toEqual({ mail: { to: 'bob@example.com', subject: message.subject, text: message.text } });
    expect(message.text).toContain('http://portal.test/resetpassword?token=xyz');
  });

  it('logs a failed delivery without throwing, and without the body', async () => {
    const { log, lines } = recordingLog();
    const ok = await trySendMail(
      contextWith('smtp://127.0.0.1:1'),
      passwordResetMail({ to: 'c@example.com', name: '', link: 'http://x/secret', validMinutes: 60 }),
      log,
    );
    expect(ok).toBe(false);
    expect(lines[0].level).toBe('error');
    expect(JSON.stringify(lines[0].obj)).not.toContain('secret');
  });

  it('escapes what it puts into HTML', () => {
    const mail = accountRefusedMail({ to: 'x@example.com', name: '<b>Eve</b>', reason: 'a & b <script>' });
    expect(mail.html).toContain('&lt;b&gt;Eve&lt;/b&gt;');
    expect(mail.html).toContain('a &amp; b &lt;script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.text).toContain('a & b <script>');
  });
});
