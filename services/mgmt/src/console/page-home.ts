import express from 'express';
import { ct } from '../i18n';
import { invitationStatus } from '../use-cases/administrators/invitations';
import type { ConsoleDeps, SignedIn } from './context';
import { COPY_SCRIPT_PATH } from './copy-script';
import { allowedRoute, pageKit } from './page-kit';
import { CONSOLE_PATH, type ConsoleRenderer } from './render';

const P = CONSOLE_PATH;

/** One step of the getting-started checklist: done or not, and where to do it. */
export interface HomeStep {
  id: 'create-app' | 'connect-app' | 'sign-in' | 'invite' | 'brand';
  done: boolean;
  href: string;
}

/**
 * The checklist's state, from what the stores and the activity log can tell: an application exists; one has
 * talked to Sesame (any sign-in flow of the tenant, whatever its outcome); a sign-in succeeded; a second
 * administrator exists or is invited; the tenant has its own branding. activity-log unreachable (or absent)
 * leaves its two steps not done rather than failing the page.
 */
export async function homeSteps(deps: ConsoleDeps, s: SignedIn): Promise<HomeStep[]> {
  const tenantId = s.tenant.tenantId;
  const [apps, admins, invitations, branding] = await Promise.all([
    deps.dir.applications.list(tenantId),
    deps.admins.accounts.list(tenantId),
    deps.admins.invitations.list(tenantId),
    deps.dir.branding.get(tenantId),
  ]);
  const now = deps.clock.now();
  const anyFlow = async (status?: string) => {
    if (!deps.support || apps.length === 0) return false;
    try {
      const page = await deps.support.listFlows(tenantId, status ? { status } : {}, 1);
      return page.flows.length > 0;
    } catch {
      return false;
    }
  };
  const [connected, signedIn] = await Promise.all([anyFlow(), anyFlow('success')]);
  const firstApp = apps[0] ? `${P}/applications/${encodeURIComponent(apps[0].appId)}` : `${P}/applications`;
  return [
    { id: 'create-app', done: apps.length > 0, href: `${P}/applications?new` },
    { id: 'connect-app', done: connected, href: firstApp },
    { id: 'sign-in', done: signedIn, href: `${P}/activity` },
    {
      id: 'invite',
      done: admins.length > 1 || invitations.some((i) => invitationStatus(i, now) === 'pending'),
      href: `${P}/administrators`,
    },
    { id: 'brand', done: branding !== undefined, href: `${P}/branding` },
  ];
}

const LABELS: Record<HomeStep['id'], [string, string]> = {
  'create-app': ['home.createApp', 'home.createAppHint'],
  'connect-app': ['home.connectApp', 'home.connectAppHint'],
  'sign-in': ['home.signIn', 'home.signInHint'],
  invite: ['home.invite', 'home.inviteHint'],
  brand: ['home.brand', 'home.brandHint'],
};

/** Home: the landing page of Owners and Administrators (Support lands on Users). */
export function homePage(deps: ConsoleDeps, renderer: ConsoleRenderer) {
  const router = express.Router();
  const { show } = pageKit(deps, renderer);
  router.get(
    '/home',
    allowedRoute('application.write', async (_req, res, s) => {
      const steps = (await homeSteps(deps, s)).map((step) => ({
        ...step,
        label: LABELS[step.id][0],
        hint: LABELS[step.id][1],
      }));
      const issuer = deps.client.issuer.replace(/\/+$/, '');
      show(res, 'home', 'home', 'home.title', {
        tenantName: s.tenant.name,
        steps,
        doneCount: steps.filter((x) => x.done).length,
        endpoints: [
          { id: 'home-issuer', label: 'home.issuer', name: ct(s.locale, 'home.issuer'), value: issuer },
          {
            id: 'home-discovery',
            label: 'home.discovery',
            name: ct(s.locale, 'home.discovery'),
            value: `${issuer}/.well-known/openid-configuration`,
          },
        ],
        copyScript: COPY_SCRIPT_PATH,
      });
    }),
  );
  return router;
}
