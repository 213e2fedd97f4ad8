import type { Application } from '../directory/model';
import { type AppKind, KIND_DEFAULTS, kindOf } from './application-kinds';

/** Where a secret goes in a snippet when the page does not have it (it is shown once only). */
export const SECRET_PLACEHOLDER = 'YOUR_CLIENT_SECRET';
/** A redirect URI for the snippets of an application that has none registered yet. */
export const REDIRECT_PLACEHOLDER = 'https://app.example/callback';

/** One ready-to-paste configuration: the library, the file or command it goes in, the text. */
export interface Snippet {
  id: string;
  library: string;
  where: string;
  code: string;
}

/** The "Connect your app" section of an application's page. */
export interface ConnectView {
  kind: Exclude<AppKind, 'm2m'>;
  /** Catalog keys: the kind's name and what it does. */
  kindLabel: string;
  kindLead: string;
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  /** Only right after creation or rotation; else the snippets carry SECRET_PLACEHOLDER. */
  clientSecret?: string;
  confidential: boolean;
  redirectUri: string;
  tokenEndpointAuthMethod: string;
  snippets: Snippet[];
}

interface Values {
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  /** undefined: a public client (PKCE only, no secret). */
  secret?: string;
  redirectUri: string;
}

const q = JSON.stringify;
const pathOf = (uri: string) => {
  try {
    return new URL(uri).pathname || '/';
  } catch {
    return '/callback';
  }
};

function nodeSnippet(v: Values): string {
  const insecure = v.issuer.startsWith('http:')
    ? ',\n  { execute: [client.allowInsecureRequests] }, // http issuer: development only'
    : '';
  const auth =
    v.secret === undefined
      ? '\n  undefined, // a public client: no secret, PKCE only\n  client.None()'
      : `\n  ${q(v.secret)},\n  client.ClientSecretBasic(${q(v.secret)})`;
  return `import * as client from 'openid-client';

const config = await client.discovery(
  new URL(${q(v.issuer)}),
  ${q(v.clientId)},${auth}${insecure}
);

// Sign-in: send the browser to \`url\`; keep codeVerifier and state in the session.
const codeVerifier = client.randomPKCECodeVerifier();
const state = client.randomState();
const url = client.buildAuthorizationUrl(config, {
  redirect_uri: ${q(v.redirectUri)},
  scope: 'openid email',
  code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
  code_challenge_method: 'S256',
  state,
});

// Callback (${v.redirectUri}): redeem the code; the ID token is verified.
const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
  pkceCodeVerifier: codeVerifier,
  expectedState: state,
});
const claims = tokens.claims();
`;
}

function springSnippet(v: Values): string {
  const secret =
    v.secret === undefined
      ? '            client-authentication-method: none\n'
      : `            client-secret: ${q(v.secret)}\n            client-authentication-method: client_secret_basic\n`;
  return `spring:
  security:
    oauth2:
      client:
        registration:
          sesame:
            client-id: ${q(v.clientId)}
${secret}            authorization-grant-type: authorization_code
            redirect-uri: ${q(v.redirectUri)}
            scope: openid, email
        provider:
          sesame:
            issuer-uri: ${q(v.issuer)}
`;
}

function authlibSnippet(v: Values): string {
  const secret =
    v.secret === undefined
      ? `    client_kwargs={"scope": "openid email", "code_challenge_method": "S256",\n                   "token_endpoint_auth_method": "none"},`
      : `    client_secret=${q(v.secret)},\n    client_kwargs={"scope": "openid email", "code_challenge_method": "S256"},`;
  return `# Flask with Authlib (authlib.integrations.django_client takes the same arguments)
from authlib.integrations.flask_client import OAuth

oauth = OAuth(app)
oauth.register(
    name="sesame",
    client_id=${q(v.clientId)},
${secret}
    server_metadata_url=${q(v.discoveryUrl)},
)

@app.route("/login")
def login():
    return oauth.sesame.authorize_redirect(${q(v.redirectUri)})

@app.route(${q(pathOf(v.redirectUri))})
def callback():
    token = oauth.sesame.authorize_access_token()  # ID token verified
    user = token["userinfo"]
`;
}

function goSnippet(v: Values): string {
  return `import (
	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

provider, err := oidc.NewProvider(ctx, ${q(v.issuer)})
if err != nil {
	log.Fatal(err)
}
config := oauth2.Config{
	ClientID:     ${q(v.clientId)},
	ClientSecret: ${v.secret === undefined ? '"", // a public client: PKCE only' : `${q(v.secret)},`}
	Endpoint:     provider.Endpoint(),
	RedirectURL:  ${q(v.redirectUri)},
	Scopes:       []string{oidc.ScopeOpenID, "email"},
}
idTokens := provider.Verifier(&oidc.Config{ClientID: ${q(v.clientId)}})

// Sign-in: keep pkce and state in the session.
pkce := oauth2.GenerateVerifier()
http.Redirect(w, r, config.AuthCodeURL(state, oauth2.S256ChallengeOption(pkce)), http.StatusFound)

// Callback: redeem the code, verify the ID token.
token, err := config.Exchange(ctx, r.URL.Query().Get("code"), oauth2.VerifierOption(pkce))
idToken, err := idTokens.Verify(ctx, token.Extra("id_token").(string))
`;
}

function aspNetSnippet(v: Values): string {
  const secret =
    v.secret === undefined
      ? '    // A public client: no ClientSecret; PKCE below.\n'
      : `    options.ClientSecret = ${q(v.secret)};\n`;
  return `builder.Services
  .AddAuthentication(options =>
  {
    options.DefaultScheme = CookieAuthenticationDefaults.AuthenticationScheme;
    options.DefaultChallengeScheme = OpenIdConnectDefaults.AuthenticationScheme;
  })
  .AddCookie()
  .AddOpenIdConnect(options =>
  {
    options.Authority = ${q(v.issuer)};${v.issuer.startsWith('http:') ? '\n    options.RequireHttpsMetadata = false; // http issuer: development only' : ''}
    options.ClientId = ${q(v.clientId)};
${secret}    options.ResponseType = OpenIdConnectResponseType.Code;
    options.UsePkce = true;
    options.CallbackPath = ${q(pathOf(v.redirectUri))}; // ${v.redirectUri}
    options.Scope.Add("email");
    options.SaveTokens = true;
  });
`;
}

function oauth2ProxySnippet(v: Values): string {
  const secret =
    v.secret === undefined
      ? ''
      : `  --client-secret=${shellQuote(v.secret)} \\
`;
  return `# The redirect URI must be oauth2-proxy's callback: https://<your app>/oauth2/callback
oauth2-proxy \\
  --provider=oidc \\
  --oidc-issuer-url=${shellQuote(v.issuer)} \\
  --client-id=${shellQuote(v.clientId)} \\
${secret}  --redirect-url=${shellQuote(v.redirectUri)} \\
  --scope='openid email' \\
  --code-challenge-method=S256 \\
  --email-domain='*' \\
  --cookie-secret="$(openssl rand -base64 32 | tr -- '+/' '-_')"
`;
}

/** A POSIX shell word: single-quoted, any single quote closed, escaped and reopened. */
const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/** The ready-to-paste configurations, in the order the page shows them. */
export function snippetsOf(v: Values): Snippet[] {
  return [
    { id: 'node', library: 'openid-client (Node)', where: 'server.js', code: nodeSnippet(v) },
    {
      id: 'spring',
      library: 'Spring Security (Java)',
      where: 'application.yml',
      code: springSnippet(v),
    },
    { id: 'python', library: 'Authlib (Python)', where: 'app.py', code: authlibSnippet(v) },
    { id: 'go', library: 'go-oidc (Go)', where: 'main.go', code: goSnippet(v) },
    { id: 'aspnet', library: 'ASP.NET Core', where: 'Program.cs', code: aspNetSnippet(v) },
    { id: 'oauth2-proxy', library: 'oauth2-proxy', where: 'command line', code: oauth2ProxySnippet(v) },
  ];
}

/**
 * What an integrator needs to connect `app`: the issuer (auth_url) and its discovery URL, the Client ID, the
 * secret when it is being shown this once (else a placeholder in the snippets), one redirect URI of the
 * app, and each library's configuration with those values filled in.
 */
export function connectView(authUrl: string, app: Application, clientSecret?: string): ConnectView {
  const issuer = authUrl.replace(/\/+$/, '');
  const discoveryUrl = `${issuer}/.well-known/openid-configuration`;
  const confidential = app.clientType === 'confidential';
  const kind = kindOf(app);
  const redirectUri = app.redirectUris[0] ?? REDIRECT_PLACEHOLDER;
  const values: Values = {
    issuer,
    discoveryUrl,
    clientId: app.clientId,
    ...(confidential ? { secret: clientSecret ?? SECRET_PLACEHOLDER } : {}),
    redirectUri,
  };
  return {
    kind,
    kindLabel: `kinds.${kind}`,
    kindLead: `kinds.${kind}Lead`,
    issuer,
    discoveryUrl,
    clientId: app.clientId,
    ...(clientSecret ? { clientSecret } : {}),
    confidential,
    redirectUri,
    tokenEndpointAuthMethod: KIND_DEFAULTS[kind].tokenEndpointAuthMethod,
    snippets: snippetsOf(values),
  };
}
