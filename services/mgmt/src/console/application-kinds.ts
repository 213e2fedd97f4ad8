import { DEFAULT_REFRESH_ABSOLUTE_LIFETIME_S, DEFAULT_REFRESH_IDLE_LIFETIME_S } from '@sesame/oauth';
import type { Application, RefreshTokenSettings } from '../directory/model';

/**
 * The kinds of application the console's New application form asks for first (issue 37). A kind is a set of
 * defaults over the directory's one client model (public or confidential, redirect URIs, refresh tokens),
 * not a stored field: an application's kind is read back from what it is (kindOf).
 */
export const APP_KINDS = ['web', 'spa', 'native', 'm2m'] as const;
export type AppKind = (typeof APP_KINDS)[number];

export interface KindDefaults {
  /** A public client: no secret, PKCE only (token endpoint auth `none`). */
  public: boolean;
  /** What the token endpoint accepts from it, as discovery names it. */
  tokenEndpointAuthMethod: 'client_secret_basic' | 'none';
  grantTypes: readonly string[];
  refreshTokens?: RefreshTokenSettings;
  /** Private-use (custom) schemes such as com.example.app:/callback are registered only for native apps. */
  customSchemeRedirects: boolean;
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * Web: a server keeps the secret; refresh tokens with the platform's lifetimes. Single-page: public with PKCE;
 * refresh tokens (rotated on every use) on a short leash, because the browser holds them. Native: public
 * with PKCE, custom-scheme or claimed https redirects (RFC 8252); refresh tokens as for web. Machine to
 * machine: API credentials (client_credentials at /token), not an application.
 */
export const KIND_DEFAULTS: Record<AppKind, KindDefaults> = {
  web: {
    public: false,
    tokenEndpointAuthMethod: 'client_secret_basic',
    grantTypes: ['authorization_code', 'refresh_token'],
    refreshTokens: {
      enabled: true,
      absoluteLifetimeS: DEFAULT_REFRESH_ABSOLUTE_LIFETIME_S,
      idleLifetimeS: DEFAULT_REFRESH_IDLE_LIFETIME_S,
    },
    customSchemeRedirects: false,
  },
  spa: {
    public: true,
    tokenEndpointAuthMethod: 'none',
    grantTypes: ['authorization_code', 'refresh_token'],
    refreshTokens: { enabled: true, absoluteLifetimeS: DAY, idleLifetimeS: HOUR },
    customSchemeRedirects: false,
  },
  native: {
    public: true,
    tokenEndpointAuthMethod: 'none',
    grantTypes: ['authorization_code', 'refresh_token'],
    refreshTokens: {
      enabled: true,
      absoluteLifetimeS: DEFAULT_REFRESH_ABSOLUTE_LIFETIME_S,
      idleLifetimeS: DEFAULT_REFRESH_IDLE_LIFETIME_S,
    },
    customSchemeRedirects: true,
  },
  m2m: {
    public: false,
    tokenEndpointAuthMethod: 'client_secret_basic',
    grantTypes: ['client_credentials'],
    customSchemeRedirects: false,
  },
};

export const isAppKind = (v: unknown): v is AppKind => APP_KINDS.includes(v as AppKind);

/** A scheme other than http and https: a native app's private-use scheme (already checked by the schema). */
const isCustomScheme = (uri: string) => !/^https?:/i.test(uri);

/**
 * The kind's own rule on redirect URIs, after the directory's (application-schemas.ts redirectUri): a web or
 * single-page application's are https (or http on a loopback host); a custom scheme is a native app's.
 * The field's message, or undefined.
 */
export function redirectKindProblem(kind: AppKind, uris: readonly string[]): string | undefined {
  if (KIND_DEFAULTS[kind].customSchemeRedirects) return undefined;
  const custom = uris.find(isCustomScheme);
  return custom === undefined
    ? undefined
    : `${custom} is a custom scheme: only a Native or mobile application may use one; use https (or http on localhost)`;
}

/** What an existing application is, from its client type and redirect URIs. */
export function kindOf(app: Pick<Application, 'clientType' | 'redirectUris'>): Exclude<AppKind, 'm2m'> {
  if (app.clientType === 'confidential') return 'web';
  return app.redirectUris.some(isCustomScheme) ? 'native' : 'spa';
}
