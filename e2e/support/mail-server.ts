/**
 * A catch-all SMTP server for the browser suite. The portal sends its mail here (SMTP_URL=smtp://127.0.0.1:<port>);
 * every message is kept in memory and served as JSON on loopback, so a test can read the mail it caused:
 *
 *   GET    http://127.0.0.1:<http port>/messages            all messages, oldest first
 *   GET    http://127.0.0.1:<http port>/messages?to=ADDRESS  the messages for one recipient
 *   DELETE http://127.0.0.1:<http port>/messages            forget everything
 *
 * Run with `node --import tsx e2e/support/mail-server.ts` (scripts/e2e-server.mjs starts it). Ports from
 * E2E_SMTP_PORT (default 3198) and E2E_MAIL_HTTP_PORT (default 3197).
 */
import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';

export interface StoredMail {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 3198);
const HTTP_PORT = Number(process.env.E2E_MAIL_HTTP_PORT ?? 3197);
const messages: StoredMail[] = [];
let nextId = 1;

// --- a small MIME reader: headers, multipart bodies, quoted-printable and base64, RFC 2047 encoded words ---

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  return { headers, body };
}

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_, _charset: string, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function collectParts(raw: string, out: { text: string; html: string }): void {
  const { headers, body } = splitHeaders(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const parts = body.split(`--${boundary}`).slice(1);
    for (const part of parts) {
      if (part.startsWith('--')) break;
      collectParts(part.replace(/^\r?\n/, ''), out);
    }
    return;
  }
  const decoded = decodeBody(body, headers.get('content-transfer-encoding'));
  if (/^text\/html/i.test(type)) out.html += decoded;
  else if (/^text\//i.test(type)) out.text += decoded;
}

export function parseMail(
  raw: string,
  envelope: { from: string; to: string[] },
): Omit<StoredMail, 'id' | 'receivedAt'> {
  const { headers } = splitHeaders(raw);
  const out = { text: '', html: '' };
  collectParts(raw, out);
  return {
    from: envelope.from,
    to: envelope.to,
    subject: decodeWords(headers.get('subject') ?? ''),
    text: out.text,
    html: out.html,
  };
}

// --- the servers ---

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  banner: 'portal e2e mail catcher',
  onAuth(_auth, _session, callback) {
    callback(null, { user: 'e2e' });
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const envelope = {
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
      };
      messages.push({ id: nextId++, receivedAt: new Date().toISOString(), ...parseMail(raw, envelope) });
      callback();
    });
  },
});

const http = createServer((req, res) => {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${HTTP_PORT}`);
  if (url.pathname !== '/messages') {
    res.writeHead(404).end();
    return;
  }
  if (req.method === 'DELETE') {
    messages.length = 0;
    res.writeHead(204).end();
    return;
  }
  const to = url.searchParams.get('to')?.toLowerCase();
  const list = to ? messages.filter((m) => m.to.includes(to)) : messages;
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
});

smtp.listen(SMTP_PORT, '127.0.0.1', () => {
  http.listen(HTTP_PORT, '127.0.0.1', () =>
    console.log(`[mail] SMTP on 127.0.0.1:${SMTP_PORT}, messages on http://127.0.0.1:${HTTP_PORT}/messages`),
  );
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    http.close();
    smtp.close(() => process.exit(0));
  });
}
