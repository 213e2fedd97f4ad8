import type { Command } from './command';

const str = (o: Record<string, unknown>, name: string) => o[name] as string;
const seg = (v: string) => encodeURIComponent(v);
const iso = (ms: number) => new Date(ms).toISOString();
const invitationsPath = (o: Record<string, unknown>) =>
  `/api/v1/admin/tenants/${seg(str(o, 'tenant'))}/invitations`;

type Invitation = {
  invitationId: string;
  email: string;
  role: string;
  invitedBy: string;
  expiresAt: number;
  status: string;
  cancelledBy?: string;
  cancelReason?: string;
};

const line = (i: Invitation) =>
  `${i.invitationId}  ${i.email}  ${i.role}  ${i.status}  invited by ${i.invitedBy}, until ${iso(i.expiresAt)}${
    i.cancelReason ? `  (${i.cancelReason} by ${i.cancelledBy})` : ''
  }`;

/**
 * Administrator invitations (docs/admin-api-and-cli.md): the list (Owners and Administrators; the open
 * ones, `--status all` every one) and cancel (Owners: the mailed link stops working at once).
 */
export const invitationCommands: Record<string, Command> = {
  'invitation list': {
    usage: 'invitation list --tenant TENANT_ID [--status pending|all]',
    options: ['tenant', 'status'],
    required: ['tenant'],
    async run(call, o) {
      const query = o.status === undefined ? '' : `?status=${seg(str(o, 'status'))}`;
      const out = await call<{ invitations: Invitation[] }>('GET', `${invitationsPath(o)}${query}`);
      const text = out.invitations.map(line);
      return { json: out, text: text.length ? text : ['No invitations.'] };
    },
  },
  'invitation cancel': {
    usage: 'invitation cancel --tenant TENANT_ID --invitation-id INVITATION_ID',
    options: ['tenant', 'invitation-id'],
    required: ['tenant', 'invitation-id'],
    danger: 'cancels the invitation: its link stops working at once (invite again to undo)',
    async run(call, o) {
      const i = await call<Invitation>('DELETE', `${invitationsPath(o)}/${seg(str(o, 'invitation-id'))}`);
      return {
        json: { invitationId: i.invitationId, email: i.email, status: i.status },
        text: [`Cancelled the invitation of ${i.email} as ${i.role}: its link no longer works`],
      };
    },
  },
};
