import { type Request, Router } from 'express';
import type { z } from 'zod';
import { authorize } from '../../admins/authorize';
import type { AdminRole } from '../../admins/model';
import type { AdminAction } from '../../admins/permissions';
import type { AdminPrincipal } from '../../admins/principal';
import { type StepUpAction, assertStepUp } from '../../admins/step-up';
import type { Tenant } from '../../directory/model';
import type { AdminActivityType } from '../../events/admin-events';
import { asyncRoute } from '../../http/async-route';
import { parse } from '../../http/validate';
import type { AdminRouteDeps } from '../../use-cases/deps';
import { requireTenant } from '../../use-cases/views';
import { adminOf, adminPrincipalOf } from './admin-auth';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Schema = z.ZodTypeAny;
type Parsed<S> = S extends Schema ? z.infer<S> : undefined;

/** One admin route: where it is, what its body and path must be, and its status on success. */
export interface AdminRouteSpec<B extends Schema | undefined, P extends Schema | undefined> {
  method: Method;
  path: string;
  /** What the route does, checked against the caller's role in the permission table before it acts. */
  action: AdminAction;
  /**
   * The row of the step-up table (admins/step-up.ts) the route always is, checked right after the role: a
   * personal API token is refused the rows it may not do (403 step_up_required).
   */
  stepUp?: StepUpAction;
  /** The body's schema; a mismatch is a 400 invalid_request naming every bad field. */
  body?: B;
  /** The path parameters' schema (besides the tenant), checked after the body. */
  params?: P;
  /** 200 unless given (201 for what a POST creates). */
  status?: number;
}

/** What an admin route acts on: the parsed request, and the admin event it may publish as the caller. */
export interface AdminCall<B, P> {
  req: Request;
  body: B;
  params: P;
  /** Who is calling (bootstrap key or an administrator's token), and their role where the route acts. */
  principal: AdminPrincipal;
  role: AdminRole;
  /** Publishes one admin event as the calling admin (adminOf), keyed by `tenantId`. */
  emit(tenantId: string, activityType: AdminActivityType, data: Record<string, unknown>): Promise<void>;
}

/** An admin call on the tenant of the path (`:tenantId`), found before the route acts (404 tenant_not_found). */
export interface TenantAdminCall<B, P> extends AdminCall<B, P> {
  tenant: Tenant;
}

type Act<C> = (call: C) => Promise<unknown>;

/**
 * The admin routes' one shape: parse the body (and path), find the tenant when the path names one, act, emit
 * the admin event the action calls for, answer JSON. Authentication is the admin router's middleware
 * (adminAuth); authorization (the permission table, for the path's tenant) comes first here, and errors go to its error middleware as MgmtErrors. `act` returns the response body.
 */
export function adminRoute<
  B extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(deps: AdminRouteDeps, spec: AdminRouteSpec<B, P>, act: Act<AdminCall<Parsed<B>, Parsed<P>>>): Router {
  return Router()[spec.method](
    spec.path,
    asyncRoute(async (req, res) => {
      const principal = adminPrincipalOf(res);
      const role = await authorize(deps.admins, principal, spec.action, req.params.tenantId);
      if (spec.stepUp) assertStepUp(spec.stepUp, principal, deps.clock.now());
      const body = (spec.body ? parse(spec.body, req.body) : undefined) as Parsed<B>;
      const params = (spec.params ? parse(spec.params, req.params, 'path') : undefined) as Parsed<P>;
      const emit: AdminCall<B, P>['emit'] = async (tenantId, activityType, data) => {
        await deps.events.publish(adminOf(res), tenantId, activityType, data);
      };
      const out = await act({ req, body, params, emit, principal, role });
      res.status(spec.status ?? 200).json(out);
    }),
  );
}

/** adminRoute for a path under /tenants/:tenantId: the route acts on that tenant. */
export function tenantAdminRoute<
  B extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(deps: AdminRouteDeps, spec: AdminRouteSpec<B, P>, act: Act<TenantAdminCall<Parsed<B>, Parsed<P>>>): Router {
  return adminRoute(deps, spec, async (call) =>
    act({ ...call, tenant: await requireTenant(deps.dir, call.req.params.tenantId!) }),
  );
}
