import express from 'express';
import { REDIRECT_FIELDS, type StepUpAction, touches } from '../admins/step-up';
import { asyncRoute } from '../http/async-route';
import { parse } from '../http/validate';
import { updateApplicationBody } from '../use-cases/applications/application-schemas';
import { removeApplication } from '../use-cases/applications/remove-application';
import { rotateClientSecret } from '../use-cases/applications/rotate-client-secret';
import { updateApplication } from '../use-cases/applications/update-application';
import { requireApplication } from '../use-cases/views';
import { type ConsoleDeps, signedInOf } from './context';
import { ConsoleError } from './errors';
import { pageKit, requireRole, requireStepUp } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';

const P = `${CONSOLE_PATH}/applications`;
const lines = (v: unknown) =>
  String(v ?? '')
    .split(/[\r\n\s]+/)
    .map((x) => x.trim())
    .filter(Boolean);
const optional = (v: unknown) => (String(v ?? '').trim() === '' ? null : String(v).trim());
/**
 * The "CIBA pending poll answer" select: `standard` is CIBA Core §11's HTTP 400 (ciba.strictErrors), `spec`
 * the spec's HTTP 200; a form without the field keeps the application's setting.
 */
const strictErrorsOf = (v: unknown, current: boolean) =>
  v === 'standard' ? true : v === 'spec' ? false : current;

/**
 * One application: its Client ID, every setting the admin API has (redirect URIs, registration redirect
 * URI, public or confidential (a new secret shown once; a recent sign-in, like rotating), CIBA mode, notification endpoint and pending poll answer, aux-link prefix, allowed scopes, link validity), rotating the
 * secret (shown once) and removal confirmed by typing the name. Each change emits what the admin API emits.
 */
export function applicationPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show, emit } = pageKit(deps, renderer);
  const view = async (tenantId: string, appId: string, extra: Record<string, unknown> = {}) => {
    const app = await requireApplication(deps.dir, tenantId, appId).catch(() => {
      throw new ConsoleError(404, 'error.notFound');
    });
    const base = `${P}/${encodeURIComponent(app.appId)}`;
    return {
      app: {
        name: app.name,
        clientId: app.clientId,
        confidential: app.clientType === 'confidential',
        redirectUris: (app.redirectUris ?? []).join('\n'),
        registrationRedirectUri: app.registrationRedirectUri ?? '',
        auxLinkPrefix: app.auxLinkPrefix ?? '',
        allowedScopes: (app.allowedScopes ?? []).join(' '),
        postLogoutRedirectUris: (app.postLogoutRedirectUris ?? []).join('\n'),
        backchannelLogoutUri: app.backchannelLogoutUri ?? '',
        registrationLinkExpiresIn: app.registrationLinkExpiresIn ?? '',
        cibaPoll: app.ciba.mode === 'poll',
        cibaPing: app.ciba.mode === 'ping',
        cibaEndpoint: app.ciba.notificationEndpoint ?? '',
        cibaStandard: app.ciba.strictErrors,
      },
      saveAction: base,
      rotateAction: `${base}/secret`,
      clientTypeAction: `${base}/client-type`,
      removeAction: `${base}/remove`,
      ...extra,
      raw: app,
    };
  };
  type AppView = Awaited<ReturnType<typeof view>>;
  const showApp = (res: express.Response, v: AppView) =>
    show(res, 'application', 'applications', 'apps.title', { ...v, title: v.app.name });
  /** The application page with a new client secret, shown this once. */
  const showNewSecret = async (res: express.Response, tenantId: string, appId: string, secret: string) =>
    showApp(res, await view(tenantId, appId, { newSecret: secret }));
  /**
   * A change to the application of the path, by an administrator who may write applications (and, for a row
   * of the step-up table, signed in recently).
   */
  const appChange = (
    change: (
      req: express.Request,
      res: express.Response,
      tenantId: string,
      app: AppView['raw'],
    ) => Promise<void>,
    stepUp?: StepUpAction,
  ) =>
    asyncRoute(async (req, res) => {
      const s = signedInOf(res);
      requireRole(s, 'application.write');
      if (stepUp) requireStepUp(deps, req, s, stepUp);
      const { raw } = await view(s.tenant.tenantId, req.params.appId!);
      await change(req, res, s.tenant.tenantId, raw);
    });
  router.get(
    '/applications/:appId',
    asyncRoute(async (req, res) => {
      const s = signedInOf(res);
      requireRole(s, 'application.read');
      showApp(
        res,
        await view(s.tenant.tenantId, req.params.appId!, { saved: req.query.saved !== undefined }),
      );
    }),
  );
  router.post(
    '/applications/:appId',
    appChange(async (req, res, tenantId, raw) => {
      const f = req.body ?? {};
      const expires = optional(f.registrationLinkExpiresIn);
      const body = parse(
        updateApplicationBody,
        {
          name: String(f.name ?? ''),
          redirectUris: lines(f.redirectUris),
          registrationRedirectUri: optional(f.registrationRedirectUri),
          auxLinkPrefix: optional(f.auxLinkPrefix),
          allowedScopes: lines(f.allowedScopes),
          registrationLinkExpiresIn: expires === null ? null : Number(expires),
          postLogoutRedirectUris: lines(f.postLogoutRedirectUris),
          backchannelLogoutUri: optional(f.backchannelLogoutUri),
          ciba: {
            mode: f.cibaMode === 'ping' ? 'ping' : 'poll',
            ...(optional(f.cibaNotificationEndpoint)
              ? { notificationEndpoint: optional(f.cibaNotificationEndpoint) }
              : {}),
            strictErrors: strictErrorsOf(f.cibaPendingAnswer, raw.ciba.strictErrors),
            ...(raw.ciba.expiresIn ? { expiresIn: raw.ciba.expiresIn } : {}),
          },
        },
        'form',
      );
      // Where codes, tokens and links go (redirect, logout, back-channel, CIBA, registration, aux-link URIs).
      if (touches(raw, body, REDIRECT_FIELDS))
        requireStepUp(deps, req, signedInOf(res), 'application.redirects');
      await updateApplication(deps, tenantId, raw.appId, body, emit(req, res));
      res.redirect(303, `${P}/${encodeURIComponent(raw.appId)}?saved`);
    }),
  );
  router.post(
    '/applications/:appId/secret',
    appChange(async (req, res, tenantId, raw) => {
      const secret = await rotateClientSecret(deps, tenantId, raw.appId, emit(req, res));
      await showNewSecret(res, tenantId, raw.appId, secret);
    }, 'application.rotateSecret'),
  );
  router.post(
    '/applications/:appId/client-type',
    appChange(async (req, res, tenantId, raw) => {
      const clientType = String(req.body?.clientType ?? '');
      if (clientType !== 'public' && clientType !== 'confidential') {
        throw new ConsoleError(400, 'error.invalid', {
          message: 'the client type is public or confidential',
        });
      }
      const { clientSecret } = await updateApplication(
        deps,
        tenantId,
        raw.appId,
        { public: clientType === 'public' },
        emit(req, res),
      );
      if (clientSecret === undefined) {
        res.redirect(303, `${P}/${encodeURIComponent(raw.appId)}?saved`);
        return;
      }
      await showNewSecret(res, tenantId, raw.appId, clientSecret);
    }, 'application.clientType'),
  );
  router.post(
    '/applications/:appId/remove',
    appChange(async (req, res, tenantId, raw) => {
      if (String(req.body?.confirmName ?? '') !== raw.name) {
        throw new ConsoleError(400, 'error.invalid', { message: 'type the application’s name to remove it' });
      }
      await removeApplication(deps, tenantId, raw.appId, emit(req, res));
      res.redirect(303, P);
    }, 'application.remove'),
  );
  return router;
}
