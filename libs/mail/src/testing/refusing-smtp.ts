import { type Server, type Socket, createServer } from 'node:net';

/** At which step the server refuses, and with which reply (a hostile relay echoes what it was sent). */
export type Refusal = 'recipient' | 'content' | 'temporary';

export interface RefusingSmtp {
  url: string;
  /** Every line the server received (so a test knows the message really reached it). */
  received: string[];
  close(): Promise<void>;
}

/**
 * A small SMTP server on loopback that speaks the protocol far enough for nodemailer and then refuses, the way
 * real relays do, quoting what it was given: `recipient` answers RCPT TO with 550 and the address;
 * `content` takes the DATA and answers 554 quoting the subject and the body's first lines with a link or code; `temporary` does the
 * same with 451 (try again later). The tests' shared SMTP server accepts everything, so the failure paths
 * need a server of their own.
 */
export async function startRefusingSmtp(refusal: Refusal): Promise<RefusingSmtp> {
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let inData = false;
    let quoted: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 refusing.test ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let eol = buffer.indexOf('\r\n'); eol >= 0; eol = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        received.push(line);
        if (inData) {
          if (line === '.') {
            inData = false;
            const echo = quoted.join(' | ');
            reply(refusal === 'temporary' ? `451 4.3.0 try later: ${echo}` : `554 5.6.0 refused: ${echo}`);
          } else if (/^Subject:/i.test(line) || (quoted.length < 4 && /https?:\/\/|\d{6}/.test(line))) {
            quoted.push(line);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 refusing.test');
        else if (verb === 'MAIL') reply('250 2.1.0 ok');
        else if (verb === 'RCPT')
          reply(refusal === 'recipient' ? `550 5.1.1 ${line.slice(8)} no such user here` : '250 2.1.5 ok');
        else if (verb === 'DATA') {
          inData = true;
          quoted = [];
          reply('354 go ahead');
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 ok');
        else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('502 5.5.1 not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
