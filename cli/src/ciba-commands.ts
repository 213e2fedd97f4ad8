import { CliError } from './admin-client';
import type { Command, Options } from './command';

const str = (o: Options, name: string) => o[name] as string;

/** The application's CIBA settings as the admin API shows and takes them (PATCH replaces the object). */
interface CibaSettings {
  mode: 'poll' | 'ping';
  notificationEndpoint?: string;
  strictErrors: boolean;
  expiresIn?: number;
}

export const PENDING_ANSWER_USAGE = '[--ciba-pending-answer spec|standard]';

/**
 * `--ciba-pending-answer`: what a poll of an unfinished CIBA request answers. `spec` is Sesame's spec default
 * (HTTP 200 `{"error":"authorization_pending","status":…}`), `standard` CIBA Core §11's HTTP 400
 * `authorization_pending` that standard CIBA clients expect (the admin API's `ciba.strictErrors`).
 * Undefined when the option is absent.
 */
export function strictErrorsOf(o: Options): boolean | undefined {
  const answer = o['ciba-pending-answer'] as string | undefined;
  if (answer === undefined) return undefined;
  if (answer !== 'spec' && answer !== 'standard') {
    throw new CliError('--ciba-pending-answer must be spec or standard', 2);
  }
  return answer === 'standard';
}

function settingsLines(ciba: CibaSettings): string[] {
  return [
    `  mode:                  ${ciba.mode}${ciba.notificationEndpoint ? ` (${ciba.notificationEndpoint})` : ''}`,
    `  pending poll answer:   ${ciba.strictErrors ? 'standard (HTTP 400 authorization_pending, CIBA Core §11)' : 'spec (HTTP 200 with status)'}`,
  ];
}

/**
 * `app ciba`: changes an application's CIBA settings — delivery mode, notification endpoint and the pending
 * poll answer — keeping those not given (the admin API's PATCH replaces the whole `ciba` object, so the
 * current one is read first).
 */
export const cibaCommands: Record<string, Command> = {
  'app ciba': {
    example:
      'app ciba --tenant Acme --app Shop --ciba-mode ping --ciba-notification-endpoint https://shop.example/ciba',
    usage: `app ciba --tenant TENANT_ID --app APP_ID [--ciba-mode poll|ping] [--ciba-notification-endpoint URL] ${PENDING_ANSWER_USAGE}`,
    options: ['tenant', 'app', 'ciba-mode', 'ciba-notification-endpoint', 'ciba-pending-answer'],
    required: ['tenant', 'app'],
    async run(call, o) {
      const mode = o['ciba-mode'] as string | undefined;
      if (mode !== undefined && mode !== 'poll' && mode !== 'ping')
        throw new CliError('--ciba-mode must be poll or ping', 2);
      const strictErrors = strictErrorsOf(o);
      const endpoint = o['ciba-notification-endpoint'] as string | undefined;
      if (mode === undefined && strictErrors === undefined && endpoint === undefined) {
        throw new CliError(
          'app ciba needs --ciba-mode, --ciba-notification-endpoint or --ciba-pending-answer',
          2,
        );
      }
      const path = `/api/v1/admin/tenants/${encodeURIComponent(str(o, 'tenant'))}/applications/${encodeURIComponent(str(o, 'app'))}`;
      const current = (await call<{ ciba: CibaSettings }>('GET', path)).ciba;
      const nextMode = (mode ?? current.mode) as CibaSettings['mode'];
      const notificationEndpoint =
        nextMode === 'ping' ? (endpoint ?? current.notificationEndpoint) : endpoint;
      const ciba: CibaSettings = {
        mode: nextMode,
        ...(notificationEndpoint ? { notificationEndpoint } : {}),
        strictErrors: strictErrors ?? current.strictErrors,
        ...(current.expiresIn ? { expiresIn: current.expiresIn } : {}),
      };
      const app = await call<{ appId: string; ciba: CibaSettings }>('PATCH', path, { ciba });
      return {
        json: { appId: app.appId, ciba: app.ciba },
        text: [`Application ${app.appId} CIBA settings:`, ...settingsLines(app.ciba)],
      };
    },
  },
};
