import type { Response } from 'express';
import express from 'express';
import { isAllowed } from '../admins/permissions';
import { parse } from '../http/validate';
import { ct } from '../i18n';
import { createApplicationBody } from '../use-cases/applications/application-schemas';
import { createApplication } from '../use-cases/applications/create-application';
import { createCredentials } from '../use-cases/credentials/create-credentials';
import { APP_KINDS, type AppKind, KIND_DEFAULTS, isAppKind, redirectKindProblem } from './application-kinds';
import type { ConsoleDeps, SignedIn } from './context';
import { consoleScriptCsp } from './copy-script';
import { type FormErrors, fieldRefusal, formErrors } from './field-errors';
import { applicationPageView } from './page-application';
import { credentialsListView } from './page-credentials';
import { allowedRoute, pageKit, requireRole, requireStepUp } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';

const P = `${CONSOLE_PATH}/applications`;
const lines = (v: unknown) =>
  String(v ?? '')
    .split(/\r?\n/)
    .map((u) => u.trim())
    .filter(Boolean);

/** The New application form as typed: the kind, the name and the redirect URIs. */
interface NewAppForm {
  kind: AppKind;
  name: string;
  redirectUris: string;
}

/**
 * Applications: the list and New application, which asks the kind first (application-kinds.ts: Web,
 * Single-page, Native or mobile, Machine to machine). An application kind creates the application with its
 * kind's defaults and opens its page with Connect your app and the secret shown once; Machine to machine
 * makes API credentials (client_credentials) and shows them once. A refused field is marked beside itself
 * with everything typed kept. Owners and Administrators; a recent sign-in (step-up) is needed to create.
 */
export function applicationsPage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show, emit, stepUp } = pageKit(deps, renderer);
  const appsView = async (s: SignedIn) =>
    (await deps.dir.applications.list(s.tenant.tenantId)).map((a) => ({
      name: a.name,
      clientId: a.clientId,
      href: `${P}/${encodeURIComponent(a.appId)}`,
    }));
  const list = async (
    res: Response,
    s: SignedIn,
    opts: { showForm: boolean; form?: NewAppForm; errors?: FormErrors },
    status = 200,
  ) => {
    const canWrite = isAllowed(s.account.role, 'application.write');
    const kind = opts.form?.kind ?? 'web';
    show(
      res,
      'applications',
      'applications',
      'apps.title',
      {
        apps: await appsView(s),
        canWrite,
        showForm: canWrite && opts.showForm,
        action: P,
        newHref: `${P}?new`,
        kinds: APP_KINDS.map((k) => ({
          value: k,
          label: `kinds.${k}`,
          hint: `kinds.${k}Hint`,
          checked: k === kind,
        })),
        form: opts.form ?? { name: '', redirectUris: '' },
        ...(opts.errors
          ? { errors: { ...opts.errors.byField, list: opts.errors.list }, focus: opts.errors.focus }
          : {}),
      },
      status,
    );
  };
  router.get(
    '/applications',
    allowedRoute('application.read', async (req, res, s) => {
      await list(res, s, { showForm: req.query.new !== undefined });
    }),
  );
  router.post(
    '/applications',
    allowedRoute(
      'application.write',
      async (req, res, s) => {
        const f = (req.body ?? {}) as Record<string, unknown>;
        // No kind (a script, or the form before kinds): a Web application, the form's default.
        const form: NewAppForm = {
          kind: isAppKind(f.kind) ? f.kind : 'web',
          name: typeof f.name === 'string' ? f.name : '',
          redirectUris: typeof f.redirectUris === 'string' ? f.redirectUris : '',
        };
        if (form.kind === 'm2m') {
          requireRole(s, 'credentials.write');
          requireStepUp(deps, req, s, 'credentials.create');
          const created = await createCredentials(deps, s.tenant.tenantId, emit(req, res));
          show(
            res,
            'credentials',
            'credentials',
            'creds.title',
            {
              credentials: await credentialsListView(deps, s),
              canWrite: true,
              action: `${CONSOLE_PATH}/credentials`,
              created: { credentialsId: created.credentialsId, apiSecret: created.apiSecret },
            },
            201,
          );
          return;
        }
        const defaults = KIND_DEFAULTS[form.kind];
        let created: Awaited<ReturnType<typeof createApplication>>;
        try {
          const body = parse(
            createApplicationBody,
            {
              name: form.name.trim() === '' ? undefined : form.name,
              redirectUris: lines(form.redirectUris),
              public: defaults.public,
              ...(defaults.refreshTokens ? { refreshTokens: defaults.refreshTokens } : {}),
            },
            'form',
          );
          const problem = redirectKindProblem(form.kind, body.redirectUris);
          if (problem) throw fieldRefusal('redirectUris', problem);
          created = await createApplication(deps, s.tenant.tenantId, body, emit(req, res));
        } catch (err) {
          const errors = formErrors(err, {
            name: { id: 'app-name', label: ct(s.locale, 'apps.name') },
            redirectUris: { id: 'app-redirects', label: ct(s.locale, 'apps.redirectUris') },
          });
          if (!errors) throw err;
          await list(res, s, { showForm: true, form, errors }, 400);
          return;
        }
        const app = (await deps.dir.applications.get(s.tenant.tenantId, created.appId))!;
        show(
          res,
          'application',
          'applications',
          'apps.title',
          {
            ...applicationPageView(deps, app, {
              created: true,
              ...(created.clientSecret ? { newSecret: created.clientSecret } : {}),
            }),
            title: app.name,
          },
          201,
          consoleScriptCsp,
        );
      },
      stepUp('application.create'),
    ),
  );
  return router;
}
