import type { Response } from 'express';
import { type PageBrand, pageBrandOf } from './brand-urls';
import type { Brands } from './brands';

/** What names an application's brand: every flow carries it. */
export interface BrandedFlow {
  tenantId: string;
  appId: string;
  appName: string;
}

/** The page brand of a flow's app (its display name, else the app's name), from the cached brands. */
export async function pageBrand(
  deps: { brands?: Brands },
  flow: BrandedFlow,
): Promise<Partial<PageBrand> & { name: string }> {
  if (!deps.brands) return { name: flow.appName };
  return pageBrandOf(await deps.brands.get(flow.tenantId, flow.appId), flow.appName);
}

/** Marks the response with the flow's brand: every page sendPage renders for it shows that brand. */
export async function withBrand(deps: { brands?: Brands }, res: Response, flow: BrandedFlow): Promise<void> {
  res.locals.brand = await pageBrand(deps, flow);
}
