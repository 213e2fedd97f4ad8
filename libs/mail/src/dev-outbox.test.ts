import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { DevOutbox } from './dev-outbox';
import { InvalidMailError } from './port';

const mail = (n: number) => ({
  to: `user${n}@example.com`,
  subject: `Subject ${n}`,
  text: `text ${n}`,
  html: `<p>html ${n}</p>`,
});

describe('DevOutbox', () => {
  it('lists what it was sent newest first, with the id send returned and sentAt from its clock', async () => {
    const times = ['2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z'];
    const outbox = new DevOutbox({ now: () => new Date(times.shift() ?? 0) });
    const first = await outbox.send(mail(1));
    const second = await outbox.send(mail(2));
    assert.deepEqual(outbox.list(), [
      { id: second.id, ...mail(2), sentAt: '2026-01-01T00:00:02.000Z' },
      { id: first.id, ...mail(1), sentAt: '2026-01-01T00:00:01.000Z' },
    ]);
    assert.notEqual(first.id, second.id);
  });

  it('keeps 200 messages by default, dropping the oldest', async () => {
    const outbox = new DevOutbox();
    for (let n = 1; n <= 201; n++) await outbox.send(mail(n));
    const listed = outbox.list();
    assert.equal(listed.length, 200);
    assert.equal(listed[0]?.subject, 'Subject 201');
    assert.equal(listed[199]?.subject, 'Subject 2');
  });

  it('keeps at most the capacity it was given', async () => {
    const outbox = new DevOutbox({ capacity: 2 });
    for (let n = 1; n <= 3; n++) await outbox.send(mail(n));
    assert.deepEqual(
      outbox.list().map((m) => m.subject),
      ['Subject 3', 'Subject 2'],
    );
  });

  it('refuses a capacity that is not a positive integer', () => {
    assert.throws(() => new DevOutbox({ capacity: 0 }), RangeError);
    assert.throws(() => new DevOutbox({ capacity: 1.5 }), RangeError);
  });

  it('hands out copies: changing a listed message does not change the outbox', async () => {
    const outbox = new DevOutbox();
    await outbox.send(mail(1));
    const [listed] = outbox.list();
    if (listed) listed.subject = 'changed';
    assert.equal(outbox.list()[0]?.subject, 'Subject 1');
  });

  it('lists the messages to one address newest first, in any letter case, as copies', async () => {
    const outbox = new DevOutbox();
    for (const n of [1, 2, 1, 3])
      await outbox.send({ ...mail(n), subject: `Subject ${n} (${outbox.list().length})` });
    const listed = outbox.list('USER1@Example.com');
    assert.deepEqual(
      listed.map((m) => m.subject),
      ['Subject 1 (2)', 'Subject 1 (0)'],
    );
    if (listed[0]) listed[0].subject = 'changed';
    assert.equal(outbox.list('user1@example.com')[0]?.subject, 'Subject 1 (2)');
    assert.deepEqual(outbox.list('nobody@example.com'), []);
    // Past the capacity the oldest go, for the address look-up too.
    const small = new DevOutbox({ capacity: 2 });
    for (const n of [1, 2, 3]) await small.send(mail(n));
    assert.deepEqual(small.list('user1@example.com'), []);
    assert.deepEqual(
      ['user2@example.com', 'user3@example.com'].map((to) => small.list(to)[0]?.subject),
      ['Subject 2', 'Subject 3'],
    );
  });

  it('rejects a recipient that is not an address and a subject with a line break, keeping nothing', async () => {
    const outbox = new DevOutbox();
    await assert.rejects(outbox.send({ ...mail(1), to: 'not an address' }), InvalidMailError);
    await assert.rejects(outbox.send({ ...mail(1), subject: 'a\r\nBcc: x@example.com' }), InvalidMailError);
    assert.deepEqual(outbox.list(), []);
  });
});
