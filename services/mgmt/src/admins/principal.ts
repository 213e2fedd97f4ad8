/** The authenticated caller of the admin API: the bootstrap key, or an administrator's personal API token. */
export type AdminPrincipal =
  | { kind: 'bootstrap'; breakGlass: boolean }
  | { kind: 'token'; tokenId: string; tenantId: string; email: string };
