import {
  type MailKind,
  type MailLocale,
  brandingSettingsSchema,
  mailKinds,
  mailLocales,
  mailTemplateSchema,
} from '@sesame/branding';
import { MgmtError } from '@sesame/platform';
import express, { Router } from 'express';
import type { z } from 'zod';
import { BRANDING_LINK_FIELDS, assertStepUp, touches } from '../../admins/step-up';
import { checkLogo } from '../../branding/logo';
import { fieldErrors } from '../../http/validate';
import {
  type BrandingScope,
  brandingView,
  mailTemplateOf,
  removeLogo,
  resetBranding,
  saveBranding,
  saveLogo,
  saveMailTemplate,
  settingsOf,
} from '../../use-cases/branding/branding-changes';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { requireApplication } from '../../use-cases/views';
import { tenantAdminRoute } from './admin-route';

const TENANT = '/api/v1/admin/tenants/:tenantId/branding';
const APP = '/api/v1/admin/tenants/:tenantId/applications/:appId/branding';
const TEMPLATE = `${TENANT}/mail-templates/:mail/:locale`;

/** A 400 whose message itself names every problem (a contrast ratio, a placeholder), not only its fields. */
export function parseOrExplain<S extends z.ZodTypeAny>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => i.message);
  throw new MgmtError(
    400,
    'invalid_request',
    `invalid ${what}: ${problems.join('; ')}`,
    fieldErrors(parsed.error),
  );
}

function templateParams(params: Record<string, string | undefined>): { kind: MailKind; locale: MailLocale } {
  const kind = params.mail as MailKind;
  const locale = params.locale as MailLocale;
  if (!mailKinds.includes(kind))
    throw new MgmtError(404, 'not_found', `no mail ${String(kind)}; mails are ${mailKinds.join(', ')}`);
  if (!mailLocales.includes(locale))
    throw new MgmtError(
      404,
      'not_found',
      `no locale ${String(locale)}; locales are ${mailLocales.join(', ')}`,
    );
  return { kind, locale };
}

/**
 * The branding of a tenant and of its applications (an application's settings override its tenant's), the
 * logo (raw PNG, WebP or SVG bytes, at most 64 KiB), and the tenant's mail templates per mail and locale.
 * Changes publish administrator_update_branding_authentication / _email_template with a diff.
 */
export function brandingRoutes(deps: AdminRouteDeps): Router {
  const changeDeps = { branding: deps.dir.branding, clock: deps.clock };
  const scopeOf = async (params: Record<string, string | undefined>): Promise<BrandingScope> => {
    const tenantId = params.tenantId!;
    if (!params.appId) return { tenantId };
    await requireApplication(deps.dir, tenantId, params.appId);
    return { tenantId, appId: params.appId };
  };
  const router = Router();
  for (const path of [TENANT, APP]) {
    router.use(
      tenantAdminRoute(deps, { method: 'get', path, action: 'branding.read' }, async ({ req }) => {
        const scope = await scopeOf(req.params);
        return brandingView(scope, await deps.dir.branding.get(scope.tenantId, scope.appId));
      }),
      tenantAdminRoute(
        deps,
        { method: 'put', path, action: 'branding.write' },
        async ({ req, emit, principal }) => {
          const scope = await scopeOf(req.params);
          const settings = parseOrExplain(brandingSettingsSchema, req.body, 'branding');
          // The step-up table's branding.links (a token may: see admins/step-up.ts), checked like the console's.
          const current = settingsOf(await deps.dir.branding.get(scope.tenantId, scope.appId));
          if (touches(current, settings, BRANDING_LINK_FIELDS))
            assertStepUp('branding.links', principal, deps.clock.now());
          return brandingView(scope, await saveBranding(changeDeps, scope, settings, emit));
        },
      ),
      tenantAdminRoute(deps, { method: 'delete', path, action: 'branding.write' }, async ({ req, emit }) => {
        const scope = await scopeOf(req.params);
        return brandingView(scope, await resetBranding(changeDeps, scope, emit));
      }),
    );
    // The logo's bytes as the body, typed by Content-Type; over 64 KiB is refused by checkLogo with its size.
    router.put(`${path}/logo`, express.raw({ type: () => true, limit: '1mb' }));
    router.use(
      tenantAdminRoute(
        deps,
        { method: 'put', path: `${path}/logo`, action: 'branding.write' },
        async ({ req, emit }) => {
          const scope = await scopeOf(req.params);
          const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
          const logo = checkLogo(req.get('content-type') ?? '', body);
          return brandingView(scope, await saveLogo(changeDeps, scope, logo, emit));
        },
      ),
      tenantAdminRoute(
        deps,
        { method: 'delete', path: `${path}/logo`, action: 'branding.write' },
        async ({ req, emit }) => {
          const scope = await scopeOf(req.params);
          return brandingView(scope, await removeLogo(changeDeps, scope, emit));
        },
      ),
    );
  }
  router.use(
    tenantAdminRoute(
      deps,
      { method: 'get', path: TEMPLATE, action: 'branding.read' },
      async ({ req, tenant }) => {
        const { kind, locale } = templateParams(req.params);
        return {
          mail: kind,
          locale,
          ...(await mailTemplateOf(deps.dir.branding, tenant.tenantId, kind, locale)),
        };
      },
    ),
    tenantAdminRoute(
      deps,
      { method: 'put', path: TEMPLATE, action: 'branding.write' },
      async ({ req, tenant, emit }) => {
        const { kind, locale } = templateParams(req.params);
        const template = parseOrExplain(mailTemplateSchema(kind), req.body, 'mail template');
        const saved = await saveMailTemplate(changeDeps, tenant.tenantId, kind, locale, template, emit);
        return { mail: kind, locale, ...saved };
      },
    ),
    tenantAdminRoute(
      deps,
      { method: 'delete', path: TEMPLATE, action: 'branding.write' },
      async ({ req, tenant, emit }) => {
        const { kind, locale } = templateParams(req.params);
        const saved = await saveMailTemplate(changeDeps, tenant.tenantId, kind, locale, null, emit);
        return { mail: kind, locale, ...saved };
      },
    ),
  );
  return router;
}
