/**
 * The Applications pages (issue 37): the list with New application (the kind first), and one application's
 * page: Connect your app (values with Copy buttons, each library's configuration), its settings with the
 * rarely used ones under Advanced, and the Danger zone. A refused field is marked beside itself
 * (field-errors.ts): aria-invalid, described by its message, focused first, everything typed kept.
 */

/**
 * One field of a form as the view describes it (`fields.<key>`: id, name, label key, value, error, focus,
 * describedBy, hint key, type, min): label, input, its message when refused, its hint.
 */
/** A checkbox with its label, hint and refusal, like input(): `value` is sent when checked. */
const check = (key: string, value: string, checked: string) =>
  `{{#with fields.${key}}}<div class="check"><input id="{{id}}" name="{{name}}" type="checkbox" value="${value}"{{#if @root.${checked}}} checked{{/if}}{{#if error}} aria-invalid="true"{{/if}}{{#if describedBy}} aria-describedby="{{describedBy}}"{{/if}}{{#if focus}} autofocus{{/if}}><label for="{{id}}">{{t label}}</label></div>
{{#if error}}<p id="{{id}}-error" class="field-error">{{error}}</p>{{/if}}
{{#if hint}}<p id="{{id}}-hint" class="hint">{{t hint}}</p>{{/if}}{{/with}}`;
/** A textarea like input(): a JSON or list value, not spell-checked. */
const textarea = (
  key: string,
  rows: number,
) => `{{#with fields.${key}}}<label for="{{id}}">{{t label}}</label>
<textarea id="{{id}}" name="{{name}}" rows="${rows}" spellcheck="false"{{#if error}} aria-invalid="true"{{/if}}{{#if describedBy}} aria-describedby="{{describedBy}}"{{/if}}{{#if focus}} autofocus{{/if}}>{{value}}</textarea>
{{#if error}}<p id="{{id}}-error" class="field-error">{{error}}</p>{{/if}}
{{#if hint}}<p id="{{id}}-hint" class="hint">{{t hint}}</p>{{/if}}{{/with}}`;
const input = (key: string) => `{{#with fields.${key}}}<label for="{{id}}">{{t label}}</label>
<input id="{{id}}" name="{{name}}" type="{{type}}" value="{{value}}"{{#if min}} min="{{min}}"{{/if}}{{#if error}} aria-invalid="true"{{/if}}{{#if describedBy}} aria-describedby="{{describedBy}}"{{/if}}{{#if focus}} autofocus{{/if}}>
{{#if error}}<p id="{{id}}-error" class="field-error">{{error}}</p>{{/if}}
{{#if hint}}<p id="{{id}}-hint" class="hint">{{t hint}}</p>{{/if}}{{/with}}`;

/**
 * A Copy button for the element `target`, named "Copy <what>" by its text (not aria-label, so a label
 * search for <what> finds the field alone); hidden until the script shows it (copy-script.ts).
 */
const copy = (target: string, what: string, whatArg: string) =>
  `<button type="button" class="secondary copy" data-copy="${target}" data-copied="{{t "connect.copied" what=${whatArg}}}" data-failed="{{t "connect.copyFailed"}}" hidden>{{t "connect.copy"}}<span class="visually-hidden"> {{${what}}}</span></button>`;

/** A read-only value with its label and Copy button. */
const copyField = (id: string, labelKey: string, value: string) =>
  `<div class="copy-field"><label for="${id}">{{t "${labelKey}"}}</label>
<div class="copy-row"><input id="${id}" type="text" readonly value="{{${value}}}">${copy(id, `t "${labelKey}"`, `(t "${labelKey}")`)}</div></div>`;

const errorSummary = `{{#if errors}}<div class="notice error-summary" role="alert">
<p>{{t "fields.fix"}}</p>
<ul>{{#each errors.list}}<li><a href="#{{id}}">{{message}}</a></li>{{/each}}</ul>
</div>{{/if}}`;

export const applicationPages = {
  applications: `{{#> layout}}
<h1>{{t "apps.title"}}</h1>
{{#if showForm}}
<h2>{{t "apps.new"}}</h2>
${errorSummary}
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<fieldset role="radiogroup" aria-labelledby="app-kind-legend" class="kinds">
<legend id="app-kind-legend">{{t "kinds.legend"}}</legend>
{{#each kinds}}
<div class="kind">
<input type="radio" id="kind-{{value}}" name="kind" value="{{value}}"{{#if checked}} checked{{/if}} aria-describedby="kind-{{value}}-hint">
<label for="kind-{{value}}">{{t label}}</label>
<p id="kind-{{value}}-hint" class="hint">{{t hint}}</p>
</div>
{{/each}}
</fieldset>
<label for="app-name">{{t "apps.name"}}</label>
<input id="app-name" name="name" type="text" maxlength="200" value="{{form.name}}"{{#if errors.name}} aria-invalid="true" aria-describedby="app-name-error"{{/if}}{{#if focus.name}} autofocus{{/if}}>
{{#if errors.name}}<p id="app-name-error" class="field-error">{{errors.name}}</p>{{/if}}
<label for="app-redirects">{{t "apps.redirectUris"}}</label>
<textarea id="app-redirects" name="redirectUris" rows="3" aria-describedby="{{#if errors.redirectUris}}app-redirects-error {{/if}}app-redirects-hint"{{#if errors.redirectUris}} aria-invalid="true"{{/if}}{{#if focus.redirectUris}} autofocus{{/if}}>{{form.redirectUris}}</textarea>
{{#if errors.redirectUris}}<p id="app-redirects-error" class="field-error">{{errors.redirectUris}}</p>{{/if}}
<p id="app-redirects-hint" class="hint">{{t "kinds.redirectHint"}}</p>
<button type="submit">{{t "apps.create"}}</button>
</form>
{{else}}{{#if canWrite}}
<p><a class="button" href="{{newHref}}">{{t "apps.new"}}</a></p>
{{/if}}{{/if}}
{{#if apps.length}}
<table>
<thead><tr><th scope="col">{{t "apps.name"}}</th><th scope="col">{{t "apps.clientId"}}</th></tr></thead>
<tbody>
{{#each apps}}<tr><td><a href="{{href}}">{{name}}</a></td><td><code>{{clientId}}</code></td></tr>{{/each}}
</tbody>
</table>
{{else}}
<p>{{t "apps.none"}}</p>
{{/if}}
{{/layout}}`,

  application: `{{#> layout}}
<h1>{{appName}}</h1>
{{#if saved}}<p class="notice" role="status">{{t "settings.saved"}}</p>{{/if}}
{{#if created}}<p class="notice" role="status">{{t "connect.created" name=appName}}</p>{{/if}}
<section class="connect" aria-labelledby="connect">
<h2 id="connect">{{t "connect.title"}}</h2>
<p>{{t connect.kindLabel}}: {{t connect.kindLead}}</p>
${copyField('issuer', 'connect.issuer', 'connect.issuer')}
${copyField('discovery-url', 'connect.discoveryUrl', 'connect.discoveryUrl')}
${copyField('client-id', 'apps.clientId', 'app.clientId')}
{{#if newSecret}}
<section class="once" aria-live="polite">
<p>{{t "apps.secretOnce"}}</p>
${copyField('client-secret', 'apps.clientSecret', 'newSecret')}
</section>
{{else}}{{#if connect.confidential}}<p class="hint">{{t "connect.secretHidden" placeholder=secretPlaceholder}}</p>{{/if}}{{/if}}
<p>{{t "connect.snippetsLead" redirect=connect.redirectUri}}</p>
{{#each connect.snippets}}
<details class="snippet">
<summary>{{library}}</summary>
<p class="hint">{{where}}</p>
<pre id="snippet-{{id}}" tabindex="0" aria-label="{{library}}"><code>{{code}}</code></pre>
${copy('snippet-{{id}}', 'library', 'library')}
</details>
{{/each}}
<p id="copy-status" class="visually-hidden" role="status"></p>
</section>
<h2>{{t "apps.settings"}}</h2>
${errorSummary}
<form method="post" action="{{saveAction}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="refreshFields" value="1">
<input type="hidden" name="clientAuthFields" value="1">
${input('name')}
<label for="app-redirects">{{t "apps.redirectUris"}}</label>
<textarea id="app-redirects" name="redirectUris" rows="3"{{#if errors.redirectUris}} aria-invalid="true" aria-describedby="app-redirects-error"{{/if}}{{#if focus.redirectUris}} autofocus{{/if}}>{{app.redirectUris}}</textarea>
{{#if errors.redirectUris}}<p id="app-redirects-error" class="field-error">{{errors.redirectUris}}</p>{{/if}}
<label for="app-post-logout">{{t "apps.postLogoutRedirectUris"}}</label>
<textarea id="app-post-logout" name="postLogoutRedirectUris" rows="2"{{#if errors.postLogoutRedirectUris}} aria-invalid="true" aria-describedby="app-post-logout-error"{{/if}}{{#if focus.postLogoutRedirectUris}} autofocus{{/if}}>{{app.postLogoutRedirectUris}}</textarea>
{{#if errors.postLogoutRedirectUris}}<p id="app-post-logout-error" class="field-error">{{errors.postLogoutRedirectUris}}</p>{{/if}}
<div class="check"><input id="app-refresh" name="refreshTokens" type="checkbox" value="on"{{#if app.refreshEnabled}} checked{{/if}} aria-describedby="app-refresh-hint"><label for="app-refresh">{{t "advanced.refreshTokens"}}</label></div>
<p id="app-refresh-hint" class="hint">{{t "advanced.refreshHint"}}</p>
<details class="advanced"{{#if advancedOpen}} open{{/if}}>
<summary>{{t "advanced.summary"}}</summary>
<h3>{{t "advanced.lifetimes"}}</h3>
${input('refreshAbsoluteLifetimeS')}
${input('refreshIdleLifetimeS')}
${input('registrationLinkExpiresIn')}
<h3>{{t "advanced.links"}}</h3>
${input('registrationRedirectUri')}
${input('auxLinkPrefix')}
${input('allowedScopes')}
<h3>{{t "advanced.logout"}}</h3>
${input('backchannelLogoutUri')}
<div class="check"><input id="app-backchannel-sid" name="backchannelLogoutSessionRequired" type="checkbox" value="on"{{#if app.backchannelLogoutSessionRequired}} checked{{/if}}><label for="app-backchannel-sid">{{t "advanced.sessionRequired"}}</label></div>
<h3>{{t "advanced.signing"}}</h3>
{{#with fields.idTokenSignedResponseAlg}}<label for="{{id}}">{{t label}}</label>
<select id="{{id}}" name="{{name}}"{{#if error}} aria-invalid="true"{{/if}}{{#if describedBy}} aria-describedby="{{describedBy}}"{{/if}}{{#if focus}} autofocus{{/if}}><option value="">{{t "advanced.idTokenAlgDefault"}}</option>{{#each @root.app.idTokenAlgs}}<option value="{{alg}}"{{#if selected}} selected{{/if}}>{{alg}}</option>{{/each}}</select>
{{#if error}}<p id="{{id}}-error" class="field-error">{{error}}</p>{{/if}}
{{#if hint}}<p id="{{id}}-hint" class="hint">{{t hint}}</p>{{/if}}{{/with}}
{{#with fields.requestObjectSigningAlg}}<label for="{{id}}">{{t label}}</label>
<select id="{{id}}" name="{{name}}"{{#if error}} aria-invalid="true"{{/if}}{{#if describedBy}} aria-describedby="{{describedBy}}"{{/if}}{{#if focus}} autofocus{{/if}}><option value="">{{t "advanced.requestObjectAlgAny"}}</option>{{#each @root.app.requestObjectAlgs}}<option value="{{alg}}"{{#if selected}} selected{{/if}}>{{alg}}</option>{{/each}}</select>
{{#if error}}<p id="{{id}}-error" class="field-error">{{error}}</p>{{/if}}
{{#if hint}}<p id="{{id}}-hint" class="hint">{{t hint}}</p>{{/if}}{{/with}}
<h3>{{t "advanced.clientAuth"}}</h3>
{{#with fields.tokenEndpointAuthMethod}}<label for="{{id}}">{{t label}}</label>
<select id="{{id}}" name="{{name}}"{{#if error}} aria-invalid="true"{{/if}}{{#if describedBy}} aria-describedby="{{describedBy}}"{{/if}}{{#if focus}} autofocus{{/if}}>{{#each @root.app.authMethods}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{#if labelKey}}{{t labelKey}}{{else}}{{value}}{{/if}}</option>{{/each}}</select>
{{#if error}}<p id="{{id}}-error" class="field-error">{{error}}</p>{{/if}}
{{#if hint}}<p id="{{id}}-hint" class="hint">{{t hint}}</p>{{/if}}{{/with}}
${textarea('jwks', 6)}
${input('jwksUri')}
${input('tlsClientAuthSubjectDn')}
<h3>{{t "advanced.tokens"}}</h3>
${check('dpopBoundAccessTokens', 'on', 'app.dpopBoundAccessTokens')}
${check('tlsClientCertificateBoundAccessTokens', 'on', 'app.tlsClientCertificateBoundAccessTokens')}
<h3>{{t "advanced.profile"}}</h3>
${check('requirePushedAuthorizationRequests', 'on', 'app.requirePushedAuthorizationRequests')}
${check('securityProfile', 'fapi2', 'app.fapi2')}
<h3>{{t "advanced.ciba"}}</h3>
<label for="app-ciba-mode">{{t "apps.cibaMode"}}</label>
<select id="app-ciba-mode" name="cibaMode"><option value="poll"{{#if app.cibaPoll}} selected{{/if}}>poll</option><option value="ping"{{#if app.cibaPing}} selected{{/if}}>ping</option></select>
${input('cibaNotificationEndpoint')}
<label for="app-ciba-pending">{{t "apps.cibaPending"}}</label>
<select id="app-ciba-pending" name="cibaPendingAnswer" aria-describedby="app-ciba-pending-hint"><option value="spec"{{#unless app.cibaStandard}} selected{{/unless}}>{{t "apps.cibaPendingSpec"}}</option><option value="standard"{{#if app.cibaStandard}} selected{{/if}}>{{t "apps.cibaPendingStandard"}}</option></select>
<p id="app-ciba-pending-hint" class="hint">{{t "apps.cibaPendingHint"}}</p>
${input('cibaExpiresIn')}
<h3>{{t "advanced.branding"}}</h3>
<p><a href="{{brandingHref}}">{{t "advanced.brandingLink"}}</a></p>
</details>
<button type="submit">{{t "apps.save"}}</button>
</form>
<section class="danger-zone" aria-labelledby="danger-zone">
<h2 id="danger-zone">{{t "danger.zone"}}</h2>
<h3>{{t "apps.clientType"}}</h3>
<form method="post" action="{{clientTypeAction}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<label for="app-client-type">{{t "apps.clientType"}}</label>
<select id="app-client-type" name="clientType" aria-describedby="app-client-type-hint"><option value="confidential"{{#if app.confidential}} selected{{/if}}>{{t "apps.confidential"}}</option><option value="public"{{#unless app.confidential}} selected{{/unless}}>{{t "apps.public"}}</option></select>
<p id="app-client-type-hint">{{t "apps.clientTypeHint"}}</p>
<button type="submit" class="secondary">{{t "apps.changeClientType"}}</button>
</form>
{{#if app.confidential}}
<h3>{{t "apps.clientSecret"}}</h3>
<form method="post" action="{{rotateAction}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<button type="submit" class="secondary">{{t "apps.rotate"}}</button>
</form>
{{/if}}
<h3>{{t "apps.remove"}}</h3>
<form method="post" action="{{removeAction}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<label for="app-confirm">{{t "apps.confirmName"}}</label>
<input id="app-confirm" name="confirmName" type="text" autocomplete="off" required>
<button type="submit" class="secondary">{{t "apps.remove"}}</button>
</form>
</section>
{{/layout}}`,

  applicationBranding: `{{#> layout}}
<h1>{{title}}</h1>
<p class="lead">{{t "appBranding.lead"}}</p>
{{#if saved}}<p class="notice" role="status">{{t "settings.saved"}}</p>{{/if}}
${errorSummary}
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
${input('displayName')}
<fieldset><legend>{{t "branding.light"}}</legend>
${input('lightAccent')}
${input('lightBackground')}
</fieldset>
<fieldset><legend>{{t "branding.dark"}}</legend>
${input('darkAccent')}
${input('darkBackground')}
</fieldset>
${input('supportUrl')}
${input('privacyUrl')}
${input('mailSenderName')}
<button type="submit">{{t "appBranding.save"}}</button>
</form>
<p><a href="{{appHref}}">{{t "appBranding.back" name=appName}}</a></p>
{{/layout}}`,
} as const;
