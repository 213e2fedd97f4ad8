import express, { type RequestHandler } from 'express';
import { updateApplicationBody } from '../admin/application-schemas';
import { requireApplication } from '../admin/views';
import { asyncRoute } from '../http/async-route';
import { parse } from '../http/validate';
import { removeApplication } from '../routes/admin/remove-application';
import { rotateClientSecret } from '../routes/admin/rotate-client-secret';
import { updateApplication } from '../routes/admin/update-application';
import { type ConsoleDeps, signedInOf } from './context';
import { ConsoleError } from './errors';
import { pageKit, requireRole } from './page-kit';
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
export function applicationPage(deps: ConsoleDeps, renderer: ConsoleRenderer, recentSignIn: RequestHandler) {
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
  router.get(
    '/applications/:appId',
    asyncRoute(async (req, res) => {
      const s = signedInOf(res);
      requireRole(s, 'application.read');
      const v = await view(s.tenant.tenantId, req.params.appId!, { saved: req.query.saved !== undefined });
      show(res, 'application', 'applications', 'apps.title', { ...v, title: v.app.name });
    }),
  );
  router.post(
    '/applications/:appId',
    asyncRoute(async (req, res) => {
      const s = signedInOf(res);
      requireRole(s, 'application.write');
      const { raw } = await view(s.tenant.tenantId, req.params.appId!);
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
      await updateApplication(deps, s.tenant.tenantId, raw.appId, body, emit(req, res));
      res.redirect(303, `${P}/${encodeURIComponent(raw.appId)}?saved`);
    }),
  );
  router.post(
    '/applications/:appId/secret',
    recentSignIn,
    asyncRoute(async (req, res) => {
      const s = signedInOf(res);
      requireRole(s, 'application.write');
      const { raw } = await view(s.tenant.tenantId, req.params.appId!);
      const secret = await rotateClientSecret(deps, s.tenant.tenantId, raw.appId, emit(req, res));
      const v = await view(s.tenant.tenantId, raw.appId, { newSecret: secret });
      show(res, 'application', 'applications', 'apps.title', { ...v, title: v.app.name });
    }),
  );
  router.post(
    '/applications/:appId/client-type',
    recentSignIn,
    asyncRoute(async (req, res) => {
      const s = signedInOf(res);
      requireRole(s, 'application.write');
      const { raw } = await view(s.tenant.tenantId, req.params.appId!);
      const clientType = String(req.body?.clientType ?? '');
      if (clientType !== 'public' && clientType !== 'confidential') {
        throw new ConsoleError(400, 'error.invalid', {
          message: 'the client type is public or confidential',
        });
      }
      const { clientSecret } = await updateApplication(
        deps,
        s.tenant.tenantId,
        raw.appId,
        { public: clientType === 'public' },
        emit(req, res),
      );
      if (clientSecret === undefined) {
        res.redirect(303, `${P}/${encodeURIComponent(raw.appId)}?saved`);
        return;
      }
      const v = await view(s.tenant.tenantId, raw.appId, { newSecret: clientSecret });
      show(res, 'application', 'applications', 'apps.title', { ...v, title: v.app.name });
    }),
  );
  router.post(
    '/applications/:appId/remove',
    recentSignIn,
    asyncRoute(async (req, res) => {
      const s = signedInOf(res);
      requireRole(s, 'application.write');
      const { raw } = await view(s.tenant.tenantId, req.params.appId!);
      if (String(req.body?.confirmName ?? '') !== raw.name) {
        throw new ConsoleError(400, 'error.invalid', { message: 'type the application’s name to remove it' });
      }
      await removeApplication(deps, s.tenant.tenantId, raw.appId, emit(req, res));
      res.redirect(303, P);
    }),
  );
  return router;
}
