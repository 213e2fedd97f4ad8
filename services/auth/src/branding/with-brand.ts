import type { Response } from 'express';
import { type PageBrand, pageBrandOf } from './brand-urls';
import type { Brands } from './brands';

/** What names an application's brand: every flow carries it. */
export interface BrandedFlow {
  tenantId: string;
  appId: string;
  appName: string;
}

/**
 * Who a page belongs to when no flow is at hand: a tenant and, when known, its application (appId '' for the
 * tenant's own brand; appName '' when the app's name is not known, e.g. a link remembered from before).
 */
export type BrandOwner = { tenantId: string; appId?: string; appName?: string };

/** The page brand of a flow's app (its display name, else the app's name), from the cached brands. */
export async function pageBrand(
  deps: { brands?: Brands },
  flow: BrandOwner,
): Promise<Partial<PageBrand> & { name: string }> {
  const appName = flow.appName ?? '';
  if (!deps.brands) return { name: appName };
  return pageBrandOf(await deps.brands.get(flow.tenantId, flow.appId ?? ''), appName);
}

/** Marks the response with the flow's brand: every page sendPage renders for it shows that brand. */
export async function withBrand(deps: { brands?: Brands }, res: Response, flow: BrandOwner): Promise<void> {
  res.locals.brand = await pageBrand(deps, flow);
}

/**
 * The brand owner of any journey's flow or remembered record: its own tenantId/appId/appName, or its
 * invitation's (a registration). Undefined when it names no tenant: the page keeps the neutral default.
 */
export function brandOwnerOf(record: unknown): BrandOwner | undefined {
  if (!record || typeof record !== 'object') return undefined;
  const r = record as { tenantId?: unknown; appId?: unknown; appName?: unknown; invitation?: unknown };
  if (typeof r.tenantId !== 'string' || !r.tenantId)
    return r.invitation ? brandOwnerOf(r.invitation) : undefined;
  return {
    tenantId: r.tenantId,
    ...(typeof r.appId === 'string' ? { appId: r.appId } : {}),
    ...(typeof r.appName === 'string' ? { appName: r.appName } : {}),
  };
}

/** withBrand for whatever a route knows (a flow, a link's memo, a client), or nothing when it knows none. */
export async function withBrandOf(deps: { brands?: Brands }, res: Response, record: unknown): Promise<void> {
  const owner = brandOwnerOf(record);
  if (owner) await withBrand(deps, res, owner);
}
