/** One message the tests' SMTP server (scripts/infra/smtp-server.mjs) received. */
export interface MailboxMessage {
  id: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

export interface Mailbox {
  /** Every message to this address the server still holds, newest first. */
  messagesTo(address: string): Promise<MailboxMessage[]>;
  /**
   * The newest message to the address, waiting until one arrives; with `after`, only one received at or
   * after that moment (so a test that resends a code waits for the new mail, not the old one).
   */
  waitForMessageTo(address: string, options: { timeoutMs: number; after?: Date }): Promise<MailboxMessage>;
}

function isMessage(v: unknown): v is MailboxMessage {
  const m = v as Record<string, unknown>;
  return (
    typeof m === 'object' &&
    m !== null &&
    ['id', 'to', 'from', 'subject', 'text', 'html', 'receivedAt'].every((k) => typeof m[k] === 'string')
  );
}

/**
 * Reads what the tests' SMTP server received, through its HTTP API at SESAME_TEST_MAILBOX_URL (printed by
 * `npm run infra -- env`, passed on by `npm test`). A missing variable fails the test.
 */
export function mailbox(env: Record<string, string | undefined> = process.env): Mailbox {
  const base = env.SESAME_TEST_MAILBOX_URL;
  if (!base) {
    throw new Error(
      'mail tests need the test SMTP server: SESAME_TEST_MAILBOX_URL not set (run `npm test`, or `npm run infra -- up` and `eval "$(npm run -s infra -- env)"`)',
    );
  }
  const messagesTo = async (address: string): Promise<MailboxMessage[]> => {
    const url = new URL('/messages', base);
    url.searchParams.set('to', address);
    const res = await fetch(url);
    if (!res.ok) throw new Error(`mailbox ${url}: HTTP ${res.status}`);
    const body = (await res.json()) as { messages?: unknown };
    if (!Array.isArray(body.messages) || !body.messages.every(isMessage)) {
      throw new Error(`mailbox ${url}: unexpected answer ${JSON.stringify(body).slice(0, 200)}`);
    }
    return body.messages;
  };
  const waitForMessageTo = async (
    address: string,
    { timeoutMs, after }: { timeoutMs: number; after?: Date },
  ): Promise<MailboxMessage> => {
    const deadline = Date.now() + timeoutMs;
    const fresh = (m: MailboxMessage) => !after || Date.parse(m.receivedAt) >= after.getTime();
    for (;;) {
      const found = (await messagesTo(address)).find(fresh);
      if (found) return found;
      if (Date.now() >= deadline) {
        const since = after ? ` received since ${after.toISOString()}` : '';
        throw new Error(`no mail to ${address}${since} within ${timeoutMs} ms`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { messagesTo, waitForMessageTo };
}
