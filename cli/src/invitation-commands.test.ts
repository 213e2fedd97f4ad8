import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { usage } from './cli';
import { commands } from './commands';
import { recording } from './recording-call';

const pending = {
  invitationId: 'i-1',
  email: 'new@acme.test',
  role: 'owner',
  invitedBy: 'owner@acme.test',
  expiresAt: Date.UTC(2026, 0, 4),
  status: 'pending',
};

describe('CLI: invitation list and cancel', () => {
  it('invitation list GETs the open invitations (or --status all) and prints who invited, the role and the expiry', async () => {
    const { calls, call } = recording({ invitations: [pending] });
    const out = await commands['invitation list']!.run(call, { tenant: 't 1' });
    assert.deepEqual(calls, [['GET', '/api/v1/admin/tenants/t%201/invitations', undefined]]);
    assert.deepEqual(out.text, [
      'i-1  new@acme.test  owner  pending  invited by owner@acme.test, until 2026-01-04T00:00:00.000Z',
    ]);
    const cancelled = {
      ...pending,
      status: 'cancelled',
      cancelReason: 'removed',
      cancelledBy: 'boss@acme.test',
    };
    const all = recording({ invitations: [cancelled] });
    const printed = await commands['invitation list']!.run(all.call, { tenant: 't1', status: 'all' });
    assert.equal(all.calls[0]![1], '/api/v1/admin/tenants/t1/invitations?status=all');
    assert.match(printed.text[0]!, /cancelled .*\(removed by boss@acme\.test\)$/);
    assert.deepEqual(
      (await commands['invitation list']!.run(recording({ invitations: [] }).call, { tenant: 't1' })).text,
      ['No invitations.'],
    );
  });

  it('invitation cancel DELETEs the one invitation and says its link no longer works', async () => {
    const { calls, call } = recording({ ...pending, status: 'cancelled' });
    const out = await commands['invitation cancel']!.run(call, { tenant: 't1', 'invitation-id': 'i/1' });
    assert.deepEqual(calls, [['DELETE', '/api/v1/admin/tenants/t1/invitations/i%2F1', undefined]]);
    assert.deepEqual(out.json, { invitationId: 'i-1', email: 'new@acme.test', status: 'cancelled' });
    assert.deepEqual(out.text, [
      'Cancelled the invitation of new@acme.test as owner: its link no longer works',
    ]);
    assert.deepEqual(commands['invitation cancel']!.required, ['tenant', 'invitation-id']);
    assert.match(usage(), /invitation cancel --tenant TENANT_ID --invitation-id INVITATION_ID/);
  });
});
