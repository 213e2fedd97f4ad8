import assert from 'node:assert/strict';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, it } from '@jest/globals';
import { type Io, run } from './cli';
import { commands } from './commands';

/** A stand-in admin API on a real port: it records every request and answers one generic JSON body. */
let server: Server;
let url: string;
const requests: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          appId: 'a1',
          clientId: 'c1',
          clientSecret: 'new-secret',
          credentialsId: 'k1',
          tokenId: 't1',
          revokedAt: 1,
          revokedTokens: 0,
          tenantId: 't1',
          settings: {},
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests.length = 0;
});

/** Runs the CLI; `answer` is the person at the terminal (none: no terminal, as in a script or a pipe). */
async function sesame(args: string[], answer?: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const questions: string[] = [];
  const io: Io = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    ...(answer === undefined
      ? {}
      : {
          confirm: async (q: string) => {
            questions.push(q);
            return answer;
          },
        }),
  };
  const code = await run([...args, '--url', url, '--admin-key', 'k'], {}, io);
  return { code, out, err: err.join('\n'), questions };
}

// Ids as the admin API makes them (UUIDs): used as they are, with no lookup (names are, tenant-context.ts).
const TID = '00000000-0000-4000-8000-000000000001';
const AID = '00000000-0000-4000-8000-0000000000a1';
const T = ['--tenant', TID];
/** Each destructive command, its arguments, the request it makes once confirmed, and what its question says. */
const cases: Array<[string, string[], string, RegExp]> = [
  [
    'app remove',
    [...T, '--app', AID],
    `DELETE /api/v1/admin/tenants/${TID}/applications/${AID}`,
    /sign-in through it stops/,
  ],
  [
    'app rotate-secret',
    [...T, '--app', AID],
    `POST /api/v1/admin/tenants/${TID}/applications/${AID}/client-secret`,
    /current secret stops working at once/,
  ],
  [
    'app client-type',
    [...T, '--app', AID, '--client-type', 'public'],
    `PATCH /api/v1/admin/tenants/${TID}/applications/${AID}`,
    /apps using the old setting fail/,
  ],
  [
    'credentials revoke',
    [...T, '--credentials', 'k1'],
    `DELETE /api/v1/admin/tenants/${TID}/credentials/k1`,
    /stop working at once/,
  ],
  [
    'admin remove',
    [...T, '--email', 'a@b.c'],
    `DELETE /api/v1/admin/tenants/${TID}/administrators/a%40b.c`,
    /lose access to the console/,
  ],
  [
    'token revoke',
    [...T, '--token-id', 't1'],
    `DELETE /api/v1/admin/tenants/${TID}/tokens/t1`,
    /fail at once/,
  ],
  [
    'branding reset',
    [...T],
    `DELETE /api/v1/admin/tenants/${TID}/branding`,
    /logo, colours, links and mail texts are replaced/,
  ],
  [
    'user sign-out-everywhere',
    [...T, '--user', 'u1'],
    `POST /api/v1/admin/tenants/${TID}/users/u1/sign-out-everywhere`,
    /ends every session of this person/,
  ],
  [
    'user disable',
    [...T, '--user', 'u1'],
    `POST /api/v1/admin/tenants/${TID}/users/u1/disable`,
    /cannot sign in to any of its applications/,
  ],
  [
    'user passkey remove',
    [...T, '--user', 'u1', '--passkey', 'k/1'],
    `DELETE /api/v1/admin/tenants/${TID}/users/u1/passkeys/k%2F1`,
    /it cannot sign in any more/,
  ],
  [
    'attempts erase',
    [...T, '--email', 'ghost@example.com'],
    `POST /api/v1/admin/tenants/${TID}/attempts/erase`,
    /for good/,
  ],
  [
    'invitation cancel',
    [...T, '--invitation-id', 'i1'],
    `DELETE /api/v1/admin/tenants/${TID}/invitations/i1`,
    /its link stops working/,
  ],
  [
    'user phone remove',
    [...T, '--user', 'u1'],
    `DELETE /api/v1/admin/tenants/${TID}/users/u1/phone-number`,
    /forgets this person's phone number/,
  ],
];

describe('CLI: destructive commands ask once, unless --yes', () => {
  for (const [name, args, request, says] of cases) {
    const argv = [...name.split(' '), ...args];
    it(`${name}: refuses without a terminal and sends nothing; --yes goes ahead`, async () => {
      const refused = await sesame(argv);
      assert.equal(refused.code, 2);
      assert.match(refused.err, /pass --yes/);
      assert.match(refused.err, says);
      assert.equal(requests.length, 0);
      const yes = await sesame([...argv, '--yes']);
      assert.equal(yes.code, 0, yes.err);
      assert.equal(requests.length, 1);
      assert.ok(requests[0]!.startsWith(request), requests[0]);
    });

    it(`${name}: on a terminal asks y/N saying what breaks; no sends nothing, yes sends it`, async () => {
      const no = await sesame(argv, false);
      assert.equal(no.code, 1);
      assert.match(no.err, /cancelled: nothing was changed/);
      assert.equal(no.questions.length, 1);
      assert.match(no.questions[0]!, says);
      assert.match(no.questions[0]!, new RegExp(`^"${name}" `));
      assert.equal(requests.length, 0);
      const yes = await sesame(argv, true);
      assert.equal(yes.code, 0, yes.err);
      assert.equal(yes.questions.length, 1);
      assert.equal(requests.length, 1);
      assert.ok(requests[0]!.startsWith(request), requests[0]);
    });
  }

  it('every command that removes, revokes, erases, resets, cancels or disables is destructive, and each is tested here', () => {
    const verbs = /^(remove|revoke|erase|reset|cancel|disable|delete|rotate-secret|sign-out-everywhere)$/;
    for (const [name, command] of Object.entries(commands))
      if (verbs.test(name.split(' ').at(-1)!)) assert.ok(command.danger, `${name} asks before it acts`);
    const destructive = Object.entries(commands)
      .filter(([, command]) => command.danger)
      .map(([name]) => name);
    assert.deepEqual(destructive.sort(), cases.map(([name]) => name).sort());
  });

  it('-y is --yes, and a command that destroys nothing takes neither and never asks', async () => {
    assert.equal((await sesame(['app', 'remove', ...T, '--app', AID, '-y'])).code, 0);
    const list = await sesame(['app', 'list', ...T, '--yes']);
    assert.equal(list.code, 2);
    assert.match(list.err, /does not take --yes/);
    const asked = await sesame(['token', 'list', ...T], true);
    assert.deepEqual(asked.questions, []);
  });
});
