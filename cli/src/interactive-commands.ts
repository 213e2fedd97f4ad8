import {
  INTERACTIVE_INIT_PATH,
  interactiveAuthorization,
  interactiveNonce,
  interactiveSignature,
} from '@sesame/platform/interactive-signature';
import type { Command } from './command';

const str = (o: Record<string, unknown>, name: string) => o[name] as string;

/**
 * Interactive init helpers (docs/interactive-init.md). `interactive sign` runs locally: it computes the
 * Authorization value an RP sends with that exact body (now, with a fresh nonce) and calls nothing. `app rotate-secret` gives a confidential client a new
 * secret (and with it the sealed copy interactive init signatures are checked with).
 */
export const interactiveCommands: Record<string, Command> = {
  'interactive sign': {
    usage:
      'interactive sign --token ACCESS_TOKEN --secret CLIENT_SECRET --body BODY [--timestamp UNIX_SECONDS] [--nonce NONCE]',
    options: ['token', 'secret', 'body', 'timestamp', 'nonce'],
    required: ['token', 'secret', 'body'],
    local: true,
    async run(_call, o) {
      const request = {
        method: 'POST',
        path: INTERACTIVE_INIT_PATH,
        timestamp: o.timestamp === undefined ? Math.floor(Date.now() / 1000) : Number(str(o, 'timestamp')),
        nonce: o.nonce === undefined ? interactiveNonce() : str(o, 'nonce'),
        accessToken: str(o, 'token'),
        body: str(o, 'body'),
      };
      const secret = str(o, 'secret');
      const authorization = interactiveAuthorization(request, secret);
      return {
        json: {
          signature: interactiveSignature(request, secret),
          timestamp: request.timestamp,
          nonce: request.nonce,
          authorization,
        },
        text: [authorization],
      };
    },
  },
  'app rotate-secret': {
    danger:
      'rotates the client secret: the current secret stops working at once; apps using it fail to get tokens until updated',
    usage: 'app rotate-secret --tenant TENANT_ID --app APP_ID',
    options: ['tenant', 'app'],
    required: ['tenant', 'app'],
    async run(call, o) {
      const path = `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}/applications/${encodeURIComponent(str(o, 'app'))}/client-secret`;
      const { clientSecret } = await call<{ clientSecret: string }>('POST', path);
      return {
        json: { clientSecret },
        text: [
          'Rotated the client secret (shown once; the old one no longer works)',
          `  clientSecret: ${clientSecret}`,
        ],
      };
    },
  },
};
