import { directory } from '@sesame/proto';
import type { Application } from '../directory/model';
import { SYSTEM_TENANT_ID } from '../directory/system-tenant';

/**
 * The directory's application as the Directory contract's Client (never the secret hash). The tenant's
 * location rule is GetClient's to add (blockedCountries is empty here).
 */
export function toClientMessage(app: Application): directory.Client {
  return {
    tenantId: app.tenantId,
    appId: app.appId,
    clientId: app.clientId,
    appName: app.name,
    type:
      app.clientType === 'public'
        ? directory.ClientType.CLIENT_TYPE_PUBLIC
        : directory.ClientType.CLIENT_TYPE_CONFIDENTIAL,
    redirectUris: [...app.redirectUris],
    allowedScopes: [...app.allowedScopes],
    ciba: {
      mode:
        app.ciba.mode === 'ping'
          ? directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_PING
          : directory.CibaDeliveryMode.CIBA_DELIVERY_MODE_POLL,
      notificationEndpoint: app.ciba.notificationEndpoint ?? '',
      strictErrors: app.ciba.strictErrors,
      expiresIn: app.ciba.expiresIn ?? 0,
    },
    auxLinkPrefix: app.auxLinkPrefix ?? '',
    registrationRedirectUri: app.registrationRedirectUri ?? '',
    blockedCountries: [],
    refreshTokens: {
      enabled: app.refreshTokens?.enabled ?? false,
      absoluteLifetimeS: app.refreshTokens?.absoluteLifetimeS ?? 0,
      idleLifetimeS: app.refreshTokens?.idleLifetimeS ?? 0,
    },
    postLogoutRedirectUris: [...(app.postLogoutRedirectUris ?? [])],
    backchannelLogoutUri: app.backchannelLogoutUri ?? '',
    backchannelLogoutSessionRequired: app.backchannelLogoutSessionRequired ?? false,
    // Only the system tenant's own client can be first-party, whatever a store row says.
    firstParty: app.firstParty === true && app.tenantId === SYSTEM_TENANT_ID,
    tokenEndpointAuthMethod: app.tokenEndpointAuthMethod ?? '',
    jwks: app.jwks ? JSON.stringify(app.jwks) : '',
    jwksUri: app.jwksUri ?? '',
    requirePushedAuthorizationRequests: app.requirePushedAuthorizationRequests ?? false,
    requestObjectSigningAlg: app.requestObjectSigningAlg ?? '',
    dpopBoundAccessTokens: app.dpopBoundAccessTokens ?? false,
    tlsClientAuthSubjectDn: app.tlsClientAuthSubjectDn ?? '',
    tlsClientCertificateBoundAccessTokens: app.tlsClientCertificateBoundAccessTokens ?? false,
    idTokenSignedResponseAlg: app.idTokenSignedResponseAlg ?? '',
    backchannelAuthenticationRequestSigningAlg: app.backchannelAuthenticationRequestSigningAlg ?? '',
    securityProfile: app.securityProfile ?? '',
  };
}
