#!/usr/bin/env node
// The tests' SMTP server: accepts any mail on loopback (authentication optional, no STARTTLS), parses each
// message and keeps the newest ones in memory, and answers a small HTTP API on another port so tests can
// read what arrived:
//   GET    /messages?to=<address>  → {"messages":[{id,to,from,subject,text,html,receivedAt}]}, newest first
//   DELETE /messages[?to=<address>] → 204; forgets every message (or those to one address)
// Usage: node scripts/infra/smtp-server.mjs --port 12525 --api-port 12526
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const HOST = '127.0.0.1';
// Bounded so a long-lived server that many test runs share cannot grow without limit.
const MAX_MESSAGES = 5000;

function portArg(flag) {
  const i = process.argv.indexOf(flag);
  const n = Number(process.argv[i + 1]);
  if (i < 0 || !Number.isInteger(n) || n <= 0 || n > 65535) {
    console.error(`smtp-server: ${flag} <port> is required (got ${process.argv[i + 1] ?? 'nothing'})`);
    process.exit(2);
  }
  return n;
}

const smtpPort = portArg('--port');
const apiPort = portArg('--api-port');
const messages = []; // oldest first

const addressesOf = (field) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((f) => f.value.map((v) => v.address));
const headerText = (field) =>
  Array.isArray(field) ? field.map((f) => f.text).join(', ') : (field?.text ?? '');

async function keep(stream, session) {
  const parsed = await simpleParser(stream);
  const recipients = new Set(
    [...session.envelope.rcptTo.map((r) => r.address), ...addressesOf(parsed.to)].map((a) => a.toLowerCase()),
  );
  const message = {
    id: parsed.messageId ?? `<${randomUUID()}@sesame-test-smtp>`,
    to: headerText(parsed.to) || session.envelope.rcptTo.map((r) => r.address).join(', '),
    from: headerText(parsed.from) || (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
    receivedAt: new Date().toISOString(),
  };
  messages.push({ message, recipients });
  if (messages.length > MAX_MESSAGES) messages.splice(0, messages.length - MAX_MESSAGES);
  console.log(`${message.receivedAt} received ${message.id} (${recipients.size} recipient(s))`);
}

const smtp = new SMTPServer({
  secure: false,
  disabledCommands: ['STARTTLS'], // loopback only: nothing to protect, and no certificate to manage
  authOptional: true,
  allowInsecureAuth: true,
  onAuth: (auth, _session, cb) => cb(null, { user: auth.username }),
  onData: (stream, session, cb) => keep(stream, session).then(() => cb(), cb),
  size: 10 * 1024 * 1024,
  logger: false,
});
smtp.on('error', (e) => console.error(`smtp error: ${e.message}`));

function selected(url) {
  const to = url.searchParams.get('to')?.toLowerCase();
  return (m) => !to || m.recipients.has(to);
}

const api = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', `http://${HOST}`);
  const reply = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  if (url.pathname !== '/messages') return reply(404, { error: 'not found: use /messages' });
  if (req.method === 'GET') {
    const found = messages.filter(selected(url)).map((m) => m.message);
    return reply(200, { messages: found.reverse() });
  }
  if (req.method === 'DELETE') {
    const drop = selected(url);
    const kept = messages.filter((m) => !drop(m));
    messages.splice(0, messages.length, ...kept);
    res.writeHead(204).end();
    return;
  }
  reply(405, { error: 'use GET or DELETE' });
});

smtp.listen(smtpPort, HOST, () => console.log(`smtp listening on ${HOST}:${smtpPort}`));
api.listen(apiPort, HOST, () => console.log(`mailbox API listening on http://${HOST}:${apiPort}`));

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    api.close();
    smtp.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
