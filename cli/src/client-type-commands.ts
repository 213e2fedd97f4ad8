import { CliError } from './admin-client';
import type { Command } from './command';

const str = (o: Record<string, unknown>, name: string) => o[name] as string;

/**
 * `app client-type`: switches an application between confidential and public (PATCH `{public}`). Making it
 * confidential prints the new client secret, shown this once; making it public removes its secret at once.
 */
export const clientTypeCommands: Record<string, Command> = {
  'app client-type': {
    danger:
      'changes the client type: a confidential app gets a new secret, a public one none; apps using the old setting fail until updated',
    usage: 'app client-type --tenant TENANT_ID --app APP_ID --client-type public|confidential',
    options: ['tenant', 'app', 'client-type'],
    required: ['tenant', 'app', 'client-type'],
    async run(call, o) {
      const type = str(o, 'client-type');
      if (type !== 'public' && type !== 'confidential') {
        throw new CliError('--client-type must be public or confidential', 2);
      }
      const path = `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}/applications/${encodeURIComponent(str(o, 'app'))}`;
      const app = await call<{ appId: string; public: boolean; clientSecret?: string }>('PATCH', path, {
        public: type === 'public',
      });
      const clientType = app.public ? 'public' : 'confidential';
      if (app.clientSecret === undefined) {
        return {
          json: { appId: app.appId, clientType },
          text: [
            `Application ${app.appId} is ${clientType}${app.public ? ' (no secret: use PKCE (S256))' : ''}`,
          ],
        };
      }
      return {
        json: { appId: app.appId, clientType, clientSecret: app.clientSecret },
        text: [
          `Application ${app.appId} is confidential (shown once: copy the client secret now)`,
          `  clientSecret: ${app.clientSecret}`,
        ],
      };
    },
  },
};
