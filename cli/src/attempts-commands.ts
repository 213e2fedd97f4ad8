import { CliError } from './admin-client';
import type { Command, Options } from './command';
import { tenantOf } from './logs-commands';

const str = (o: Options, name: string) => o[name] as string | undefined;

/**
 * `attempts erase --email ADDRESS`: deletes every sign-in record of the tenant the address was typed in, with
 * or without an account (POST …/attempts/erase; Administrators and Owners). `logs --email` lists them first.
 */
export const attemptsCommands: Record<string, Command> = {
  'attempts erase': {
    danger: "deletes every sign-in record this address was typed in, for good: they leave the tenant's logs",
    usage: 'attempts erase --email ADDRESS [--tenant TENANT_ID]',
    options: ['email', 'tenant'],
    required: [],
    async run(call, o) {
      const email = str(o, 'email');
      if (!email) throw new CliError('"attempts erase" needs --email ADDRESS', 2);
      const tenantId = await tenantOf(call, o);
      const answer = await call<{ email: string; erased: number }>(
        'POST',
        `/api/v1/admin/tenants/${encodeURIComponent(tenantId)}/attempts/erase`,
        { email },
      );
      return {
        json: { tenantId, ...answer },
        text: [`Erased ${answer.erased} sign-in record${answer.erased === 1 ? '' : 's'} of ${answer.email}.`],
      };
    },
  },
};
