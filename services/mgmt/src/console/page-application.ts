import type { Request, Response } from 'express';
import express from 'express';
import { REDIRECT_FIELDS, type StepUpAction, touches } from '../admins/step-up';
import { type Application, idTokenSignedResponseAlgs, requestObjectSigningAlgs } from '../directory/model';
import { asyncRoute } from '../http/async-route';
import { parse } from '../http/validate';
import { updateApplicationBody } from '../use-cases/applications/application-schemas';
import { removeApplication } from '../use-cases/applications/remove-application';
import { rotateClientSecret } from '../use-cases/applications/rotate-client-secret';
import { updateApplication } from '../use-cases/applications/update-application';
import { requireApplication } from '../use-cases/views';
import {
  type AppForm,
  FIELD_ALIASES,
  fieldViews,
  formFields,
  formOfApp,
  formOfBody,
  updateOfForm,
} from './application-form';
import { authMethodOptions } from './application-form-security';
import { SECRET_PLACEHOLDER, connectView } from './connect-app';
import { type ConsoleDeps, type SignedIn, signedInOf } from './context';
import { COPY_JS_NAME, consoleScriptCsp } from './copy-script';
import { ConsoleError } from './errors';
import { type FormErrors, formErrors } from './field-errors';
import { pageKit, requireRole, requireStepUp } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';

const P = `${CONSOLE_PATH}/applications`;

/** What the page shows besides the application: a secret shown this once, a notice, a refused form. */
export interface AppPageExtra {
  newSecret?: string;
  saved?: boolean;
  created?: boolean;
  form?: AppForm;
  errors?: FormErrors;
}

/** The application's page: Connect your app, its settings (Advanced folded), the Danger zone. */
export function applicationPageView(deps: ConsoleDeps, app: Application, extra: AppPageExtra = {}) {
  const base = `${P}/${encodeURIComponent(app.appId)}`;
  const form = extra.form ?? formOfApp(app);
  const { fields, advancedOpen } = fieldViews(form, extra.errors);
  return {
    appName: app.name,
    app: {
      ...form,
      clientId: app.clientId,
      confidential: app.clientType === 'confidential',
      cibaPoll: !form.cibaPing,
      requestObjectAlgs: requestObjectSigningAlgs.map((alg) => ({
        alg,
        selected: form.requestObjectSigningAlg === alg,
      })),
      authMethods: authMethodOptions(app, form.tokenEndpointAuthMethod),
      idTokenAlgs: idTokenSignedResponseAlgs
        .filter((alg) => alg !== 'RS256')
        .map((alg) => ({ alg, selected: form.idTokenSignedResponseAlg === alg })),
    },
    connect: connectView(deps.client.issuer, app, extra.newSecret),
    secretPlaceholder: SECRET_PLACEHOLDER,
    fields,
    advancedOpen,
    ...(extra.errors
      ? { errors: { ...extra.errors.byField, list: extra.errors.list }, focus: extra.errors.focus }
      : {}),
    ...(extra.newSecret ? { newSecret: extra.newSecret } : {}),
    saved: extra.saved ?? false,
    created: extra.created ?? false,
    saveAction: base,
    rotateAction: `${base}/secret`,
    clientTypeAction: `${base}/client-type`,
    removeAction: `${base}/remove`,
    brandingHref: `${base}/branding`,
    copyScript: `${CONSOLE_PATH}/assets/${COPY_JS_NAME}`,
  };
}

/**
 * One application: Connect your app (issuer, discovery URL, Client ID, the secret when shown this once, and
 * each library's configuration), every setting the admin API has (refresh tokens and lifetimes, logout,
 * CIBA, registration links; the rarely used ones under Advanced), rotating the secret (shown once), the
 * client type and removal (Danger zone). A refused value is shown beside its field with everything typed
 * kept. Each change emits what the admin API emits.
 */
export function applicationPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show, emit } = pageKit(deps, renderer);
  const load = (tenantId: string, appId: string) =>
    requireApplication(deps.dir, tenantId, appId).catch(() => {
      throw new ConsoleError(404, 'error.notFound');
    });
  const showApp = (res: Response, app: Application, extra: AppPageExtra = {}, status = 200) =>
    show(
      res,
      'application',
      'applications',
      'apps.title',
      { ...applicationPageView(deps, app, extra), title: app.name },
      status,
      consoleScriptCsp,
    );
  /**
   * A change to the application of the path, by an administrator who may write applications (and, for a row
   * of the step-up table, signed in recently).
   */
  const appChange = (
    change: (req: Request, res: Response, s: SignedIn, app: Application) => Promise<void>,
    stepUp?: StepUpAction,
  ) =>
    asyncRoute(async (req, res) => {
      const s = signedInOf(res);
      requireRole(s, 'application.write');
      if (stepUp) requireStepUp(deps, req, s, stepUp);
      await change(req, res, s, await load(s.tenant.tenantId, req.params.appId!));
    });
  router.get(
    '/applications/:appId',
    asyncRoute(async (req, res) => {
      const s = signedInOf(res);
      requireRole(s, 'application.read');
      showApp(res, await load(s.tenant.tenantId, req.params.appId!), {
        saved: req.query.saved !== undefined,
      });
    }),
  );
  router.post(
    '/applications/:appId',
    appChange(async (req, res, s, app) => {
      const f = (req.body ?? {}) as Record<string, unknown>;
      try {
        const body = parse(updateApplicationBody, updateOfForm(f, app, s.locale), 'form');
        // Where codes, tokens and links go (redirect, logout, back-channel, CIBA, registration, aux-link URIs).
        if (touches(app, body, REDIRECT_FIELDS)) requireStepUp(deps, req, s, 'application.redirects');
        await updateApplication(deps, s.tenant.tenantId, app.appId, body, emit(req, res));
      } catch (err) {
        const errors = formErrors(err, formFields(s.locale), FIELD_ALIASES);
        if (!errors) throw err;
        showApp(res, app, { form: formOfBody(f, app), errors }, 400);
        return;
      }
      res.redirect(303, `${P}/${encodeURIComponent(app.appId)}?saved`);
    }),
  );
  router.post(
    '/applications/:appId/secret',
    appChange(async (req, res, s, app) => {
      const secret = await rotateClientSecret(deps, s.tenant.tenantId, app.appId, emit(req, res));
      showApp(res, await load(s.tenant.tenantId, app.appId), { newSecret: secret });
    }, 'application.rotateSecret'),
  );
  router.post(
    '/applications/:appId/client-type',
    appChange(async (req, res, s, app) => {
      const clientType = String(req.body?.clientType ?? '');
      if (clientType !== 'public' && clientType !== 'confidential') {
        throw new ConsoleError(400, 'error.invalid', {
          message: 'the client type is public or confidential',
        });
      }
      const { clientSecret } = await updateApplication(
        deps,
        s.tenant.tenantId,
        app.appId,
        { public: clientType === 'public' },
        emit(req, res),
      );
      if (clientSecret === undefined) {
        res.redirect(303, `${P}/${encodeURIComponent(app.appId)}?saved`);
        return;
      }
      showApp(res, await load(s.tenant.tenantId, app.appId), { newSecret: clientSecret });
    }, 'application.clientType'),
  );
  router.post(
    '/applications/:appId/remove',
    appChange(async (req, res, s, app) => {
      if (String(req.body?.confirmName ?? '') !== app.name) {
        throw new ConsoleError(400, 'error.invalid', { message: 'type the application’s name to remove it' });
      }
      await removeApplication(deps, s.tenant.tenantId, app.appId, emit(req, res));
      res.redirect(303, P);
    }, 'application.remove'),
  );
  return router;
}
