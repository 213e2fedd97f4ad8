// Over 300 lines on purpose: the console layout and the pages that share its partials; each later page area has its own templates-*.ts (support, invitation, application, home, attempts). Next split: the tenant and token pages.
import { errorAlert as alert, invalidAttrs as invalid, fieldMessage as msg } from './form-problems';
// Over 300 lines on purpose: the console's page templates as data (no logic); one per page, each short.
import { applicationPages } from './templates-application';
import { dangerPages } from './templates-danger';
import { homePages } from './templates-home';
import { invitationPages } from './templates-invitation';
import { supportPages } from './templates-support';

/**
 * The console's Handlebars templates (auto-escaping; strings come from the catalogs through `t`). Kept as
 * modules rather than files so the service bundle carries them without a copy step.
 */
/** A colour field: its hex text (empty is the default) and, beside it, a picker the Branding script syncs. */
const colour = (id: string, name: string, label: string, pick: string, placeholder: string, hint: string) =>
  `<label for="${id}">{{t "${label}"}}</label>
<div class="colour-field"><input id="${id}" name="${name}" type="text" pattern="#[0-9a-fA-F]{6}" placeholder="${placeholder}" value="{{${name}}}"${invalid(name, hint)}>
<input id="${id}-picker" type="color" data-for="${id}" value="{{${name}Picker}}" aria-label="{{t "${pick}"}}" hidden></div>
${msg(name)}`;

export const layout = `<!doctype html>
<html lang="{{locale}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>{{t "layout.title" title=title}}</title>
<link rel="stylesheet" href="{{stylesheet}}">
</head>
<body class="console">
<a class="skip" href="#content">{{t "layout.skip"}}</a>
{{#if shell}}
<header class="shell">
<div class="shell-inner">
<p class="shell-brand">{{t "layout.brand"}}<span class="shell-tenant">{{shell.tenantName}}</span></p>
<nav class="console-nav" aria-label="{{t "nav.label"}}">
<ul class="nav-bar">
{{#each shell.links}}
<li><a href="{{href}}"{{#if current}} aria-current="page"{{/if}}>{{t label}}</a></li>
{{/each}}
</ul>
<details class="nav-menu">
<summary role="button">{{t "nav.menu"}}</summary>
<ul>
{{#each shell.links}}
<li><a href="{{href}}"{{#if current}} aria-current="page"{{/if}}>{{t label}}</a></li>
{{/each}}
</ul>
</details>
<div class="shell-account">
{{#if shell.tenants}}
<form method="post" action="{{shell.switchAction}}" class="switcher">
<input type="hidden" name="csrf" value="{{shell.csrf}}">
<label for="tenant-switch">{{t "nav.tenant"}}</label>
<select id="tenant-switch" name="tenantId">
{{#each shell.tenants}}<option value="{{tenantId}}"{{#if current}} selected{{/if}}>{{name}}</option>{{/each}}
</select>
<button type="submit" class="secondary">{{t "nav.switch"}}</button>
</form>
{{/if}}
{{#if shell.newTenantHref}}<a href="{{shell.newTenantHref}}">{{t "nav.newTenant"}}</a>{{/if}}
<form method="post" action="{{shell.signOutAction}}" class="signout">
<input type="hidden" name="csrf" value="{{shell.csrf}}">
<span class="who">{{t "nav.signedInAs" email=shell.email role=shell.roleLabel}}</span>
<button type="submit" class="secondary">{{t "nav.signOut"}}</button>
</form>
</div>
</nav>
</div>
</header>
<main id="content" class="page">
{{else}}
<header class="brand">{{t "layout.brand"}}</header>
<main id="content" class="card">
{{/if}}
{{#if welcome}}<p class="notice" role="status">{{welcome}}</p>{{/if}}
{{> @partial-block}}
</main>
{{#if copyScript}}<script src="{{copyScript}}" defer></script>{{/if}}
</body>
</html>`;

export const pages = {
  ...supportPages,
  ...invitationPages,
  ...dangerPages,
  ...applicationPages,
  ...homePages,
  error: `{{#> layout}}
<h1>{{heading}}</h1>
<p class="lead" role="alert">{{message}}</p>
{{#if signInAgain}}<p><a class="button" href="{{signInAgain}}">{{t "error.signInAgain"}}</a></p>{{/if}}
<p><a href="{{back}}">{{t "error.back"}}</a></p>
{{/layout}}`,

  soon: `{{#> layout}}
<h1>{{title}}</h1>
<p class="lead">{{t "soon.lead"}}</p>
{{/layout}}`,

  signedOut: `{{#> layout}}
<h1>{{t "signedOut.title"}}</h1>
<p class="lead">{{t "signedOut.lead"}}</p>
<p><a class="button" href="{{signIn}}">{{t "signedOut.again"}}</a></p>
{{/layout}}`,

  tokens: `{{#> layout}}
<h1>{{t "tokens.title"}}</h1>
<p class="lead">{{t "tokens.lead"}}</p>
{{#if created}}
<section class="once" aria-live="polite">
<p>{{t "tokens.created"}}</p>
<label for="new-token">{{t "tokens.token"}}</label>
<input id="new-token" type="text" readonly value="{{created.token}}">
</section>
{{/if}}
{{#if showForm}}
${alert}
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<label for="token-name">{{t "tokens.name"}}</label>
<input id="token-name" name="name" type="text" required maxlength="100" autocomplete="off" value="{{name}}"${invalid('name')}>
${msg('name')}
<button type="submit">{{t "tokens.create"}}</button>
</form>
{{else}}
<p><a class="button" href="{{newHref}}">{{t "tokens.new"}}</a></p>
{{/if}}
{{#if tokens.length}}
<table>
<thead><tr><th scope="col">{{t "tokens.name"}}</th><th scope="col">{{t "tokens.expires" date=""}}</th><th scope="col"><span class="visually-hidden">{{t "tokens.revoke"}}</span></th></tr></thead>
<tbody>
{{#each tokens}}
<tr><td>{{name}}</td><td>{{#if revoked}}{{t "tokens.revoked"}}{{else}}{{expires}}{{/if}}</td>
<td>{{#unless revoked}}<form method="post" action="{{revokeAction}}"><input type="hidden" name="csrf" value="{{@root.csrf}}"><button type="submit" class="secondary" aria-label="{{t "tokens.revoke"}} {{name}}">{{t "tokens.revoke"}}</button></form>{{/unless}}</td></tr>
{{/each}}
</tbody>
</table>
{{else}}
<p>{{t "tokens.none"}}</p>
{{/if}}
{{#if canSeeAll}}
<h2 id="all-tokens">{{t "tokens.allTitle"}}</h2>
<p>{{t "tokens.allLead"}}</p>
{{#if allTokens.length}}
<table aria-labelledby="all-tokens">
<thead><tr><th scope="col">{{t "tokens.administrator"}}</th><th scope="col">{{t "tokens.name"}}</th><th scope="col">{{t "tokens.expires" date=""}}</th><th scope="col"><span class="visually-hidden">{{t "tokens.revoke"}}</span></th></tr></thead>
<tbody>
{{#each allTokens}}
<tr><td>{{email}}</td><td>{{name}}</td><td>{{#if revoked}}{{t "tokens.revoked"}}{{else}}{{expires}}{{/if}}</td>
<td>{{#unless revoked}}<form method="post" action="{{revokeAction}}"><input type="hidden" name="csrf" value="{{@root.csrf}}"><button type="submit" class="secondary" aria-label="{{t "tokens.revokeOf" name=name email=email}}">{{t "tokens.revoke"}}</button></form>{{/unless}}</td></tr>
{{/each}}
</tbody>
</table>
{{else}}
<p>{{t "tokens.noneAll"}}</p>
{{/if}}
{{/if}}
{{/layout}}`,

  credentials: `{{#> layout}}
<h1>{{t "creds.title"}}</h1>
{{#if created}}
<section class="once" aria-live="polite">
<label for="credentials-id">{{t "creds.id"}}</label>
<input id="credentials-id" type="text" readonly value="{{created.credentialsId}}">
<p>{{t "creds.secretOnce"}}</p>
<label for="api-secret">{{t "creds.secret"}}</label>
<input id="api-secret" type="text" readonly value="{{created.apiSecret}}">
</section>
{{/if}}
{{#if canWrite}}
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<button type="submit">{{t "creds.new"}}</button>
</form>
{{/if}}
{{#if credentials.length}}
<table>
<thead><tr><th scope="col">{{t "creds.id"}}</th><th scope="col">{{t "creds.created"}}</th><th scope="col"><span class="visually-hidden">{{t "creds.revoke"}}</span></th></tr></thead>
<tbody>
{{#each credentials}}
<tr><td><code>{{credentialsId}}</code></td><td>{{created}}</td>
<td>{{#if revoked}}{{t "creds.revoked"}}{{else}}{{#if @root.canWrite}}<a href="{{confirmHref}}" aria-label="{{t "creds.revoke"}} {{credentialsId}}">{{t "creds.revoke"}}</a>{{/if}}{{/if}}</td></tr>
{{/each}}
</tbody>
</table>
{{else}}
<p>{{t "creds.none"}}</p>
{{/if}}
{{/layout}}`,

  confirmRevoke: `{{#> layout}}
<h1>{{t "creds.confirmTitle"}}</h1>
<p class="lead">{{t "creds.confirmLead" id=credentialsId}}</p>
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="confirm" value="yes">
<button type="submit">{{t "creds.confirm"}}</button>
</form>
<p><a href="{{back}}">{{t "error.back"}}</a></p>
{{/layout}}`,

  adminLogs: `{{#> layout}}
<h1>{{t "logs.title"}}</h1>
<form method="get" action="" class="filters">
<label for="logs-type">{{t "logs.type"}}</label>
<select id="logs-type" name="type"><option value="">{{t "logs.anyType"}}</option>
{{#each types}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{label}}</option>{{/each}}
</select>
<label for="logs-admin">{{t "logs.admin"}}</label>
<input id="logs-admin" name="admin" type="text" value="{{filter.admin}}">
<label for="logs-from">{{t "logs.from"}}</label>
<input id="logs-from" name="from" type="date" value="{{filter.from}}">
<label for="logs-to">{{t "logs.to"}}</label>
<input id="logs-to" name="to" type="date" value="{{filter.to}}">
<button type="submit">{{t "logs.filter"}}</button>
</form>
{{#if events.length}}
<ol class="events">
{{#each events}}
<li><article>
<h2 title="{{type}}">{{typeLabel}}</h2>
<p>{{t "logs.byFrom" when=when admin=adminEmail ip=clientIp}} <span class="hint">({{t "logs.session"}} {{sessionId}} · <code>{{type}}</code>)</span></p>
{{#if changes.length}}<ul class="diff">{{#each changes}}<li><strong>{{field}}</strong>: <del>{{from}}</del> → <ins>{{to}}</ins></li>{{/each}}</ul>{{/if}}
{{#if fields.length}}<dl>{{#each fields}}<dt>{{name}}</dt><dd>{{value}}</dd>{{/each}}</dl>{{/if}}
</article></li>
{{/each}}
</ol>
{{else}}
<p>{{t "logs.none"}}</p>
{{/if}}
{{/layout}}`,

  adminRole: `{{#> layout}}
<h1>{{t "admins.changeRole"}}</h1>
<p class="lead">{{email}}</p>
${alert}
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<label for="admin-role">{{t "admins.role"}}</label>
<select id="admin-role" name="role"${invalid('role')}>{{#each roles}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{t key}}</option>{{/each}}</select>
${msg('role')}
<button type="submit">{{t "admins.saveRole"}}</button>
</form>
<p><a href="{{back}}">{{t "admins.title"}}</a></p>
{{/layout}}`,

  settings: `{{#> layout}}
<h1>{{t "settings.title"}}</h1>
{{#if saved}}<p class="notice" role="status">{{t "settings.saved"}}</p>{{/if}}
${alert}
<form method="post" action="{{nameAction}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<label for="settings-name">{{t "tenants.name"}}</label>
<input id="settings-name" name="name" type="text" required maxlength="200" value="{{name}}"${invalid('name')}>
${msg('name')}
<button type="submit">{{t "settings.saveName"}}</button>
</form>
<h2>{{t "settings.countries"}}</h2>
<form method="post" action="{{countriesAction}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<label for="settings-countries">{{t "settings.countries"}}</label>
<input id="settings-countries" name="countries" type="text" value="{{countries}}"${invalid('countries', 'settings-countries-hint')}>
${msg('countries')}
<p id="settings-countries-hint" class="hint">{{t "settings.countriesHint"}}</p>
<button type="submit">{{t "settings.saveCountries"}}</button>
</form>
{{/layout}}`,

  branding: `{{#> layout}}
<h1>{{t "branding.title"}}</h1>
${alert}
{{#if saved}}<p class="notice" role="status">{{t "settings.saved"}}</p>{{/if}}
<form method="post" action="{{action}}" enctype="multipart/form-data">
<input type="hidden" name="csrf" value="{{csrf}}">
<label for="b-name">{{t "branding.displayName"}}</label>
<input id="b-name" name="displayName" type="text" maxlength="80" value="{{displayName}}"${invalid('displayName')}>
${msg('displayName')}
<label for="b-logo">{{t "branding.logo"}}</label>
<input id="b-logo" name="logo" type="file" accept="image/png,image/webp,image/svg+xml"${invalid('logo', 'b-logo-hint')}>
${msg('logo')}
<p id="b-logo-hint" class="hint">{{t "branding.logoHint"}}{{#if hasLogo}} {{t "branding.logoSet"}}{{/if}}</p>
<fieldset><legend>{{t "branding.light"}}</legend>
<p id="b-light-hint" class="hint">{{t "branding.colourDefault"}}</p>
${colour('b-la', 'lightAccent', 'branding.accent', 'branding.pickLightAccent', '#1d4ed8', 'b-light-hint')}
${colour('b-lb', 'lightBackground', 'branding.background', 'branding.pickLightBackground', '#f3f4f6', 'b-light-hint')}
</fieldset>
<fieldset><legend>{{t "branding.dark"}}</legend>
<p id="b-dark-hint" class="hint">{{t "branding.colourDefault"}}</p>
${colour('b-da', 'darkAccent', 'branding.darkAccent', 'branding.pickDarkAccent', '#60a5fa', 'b-dark-hint')}
${colour('b-db', 'darkBackground', 'branding.darkBackground', 'branding.pickDarkBackground', '#0b1120', 'b-dark-hint')}
</fieldset>
<label for="b-corner">{{t "branding.corners"}}</label>
<select id="b-corner" name="cornerStyle"${invalid('cornerStyle')}>{{#each corners}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{t label}}</option>{{/each}}</select>
${msg('cornerStyle')}
<label for="b-support">{{t "branding.supportUrl"}}</label>
<input id="b-support" name="supportUrl" type="url" value="{{supportUrl}}"${invalid('supportUrl')}>
${msg('supportUrl')}
<label for="b-privacy">{{t "branding.privacyUrl"}}</label>
<input id="b-privacy" name="privacyUrl" type="url" value="{{privacyUrl}}"${invalid('privacyUrl')}>
${msg('privacyUrl')}
<label for="b-sender">{{t "branding.senderName"}}</label>
<input id="b-sender" name="mailSenderName" type="text" maxlength="80" value="{{mailSenderName}}"${invalid('mailSenderName')}>
${msg('mailSenderName')}
<label for="b-reply">{{t "branding.replyTo"}}</label>
<input id="b-reply" name="mailReplyTo" type="email" value="{{mailReplyTo}}"${invalid('mailReplyTo')}>
${msg('mailReplyTo')}
<button type="submit">{{t "branding.save"}}</button>
</form>
<section class="danger-zone" aria-labelledby="danger-zone">
<h2 id="danger-zone">{{t "danger.zone"}}</h2>
<form method="post" action="{{resetAction}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<button type="submit" class="secondary">{{t "branding.reset"}}</button>
</form>
</section>
<h2>{{t "branding.preview"}}</h2>
<iframe sandbox="allow-same-origin" src="{{pagePreviewLight}}" data-preview="{{pagePreviewLight}}" title="{{t "branding.previewPageLight"}}" width="100%" height="420"></iframe>
<iframe sandbox="allow-same-origin" src="{{pagePreviewDark}}" data-preview="{{pagePreviewDark}}" title="{{t "branding.previewPageDark"}}" width="100%" height="420"></iframe>
<h2>{{t "branding.mails"}}</h2>
<form method="get" action="{{action}}">
<label for="b-mail">{{t "branding.mail"}}</label>
<select id="b-mail" name="mail">{{#each mails}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{t label}}</option>{{/each}}</select>
<label for="b-locale">{{t "branding.language"}}</label>
<select id="b-locale" name="locale">{{#each locales}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{t label}}</option>{{/each}}</select>
<button type="submit" class="secondary">{{t "branding.show"}}</button>
</form>
<form method="post" action="{{mailAction}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<input type="hidden" name="mail" value="{{mail}}">
<input type="hidden" name="locale" value="{{locale}}">
<p class="hint">{{#if custom}}{{t "branding.customText"}}{{else}}{{t "branding.defaultText"}}{{/if}} {{t "branding.placeholders" list=placeholders}}</p>
<label for="b-subject">{{t "branding.subject"}}</label>
<input id="b-subject" name="subject" type="text" maxlength="200" value="{{template.subject}}"${invalid('subject')}>
${msg('subject')}
<label for="b-pre">{{t "branding.preheader"}}</label>
<input id="b-pre" name="preheader" type="text" maxlength="200" value="{{template.preheader}}"${invalid('preheader')}>
${msg('preheader')}
<label for="b-heading">{{t "branding.heading"}}</label>
<input id="b-heading" name="heading" type="text" maxlength="200" value="{{template.heading}}"${invalid('heading')}>
${msg('heading')}
<label for="b-body">{{t "branding.body"}}</label>
<textarea id="b-body" name="body" rows="6" maxlength="4000"${invalid('body')}>{{template.body}}</textarea>
${msg('body')}
<label for="b-button">{{t "branding.button"}}</label>
<input id="b-button" name="button" type="text" maxlength="80" value="{{template.button}}"${invalid('button')}>
${msg('button')}
<button type="submit">{{t "branding.saveMail"}}</button>
</form>
<iframe sandbox="allow-same-origin" src="{{mailPreviewLight}}" data-preview="{{mailPreviewLight}}" title="{{t "branding.previewMailLight"}}" width="100%" height="520"></iframe>
<iframe sandbox="allow-same-origin" src="{{mailPreviewDark}}" data-preview="{{mailPreviewDark}}" title="{{t "branding.previewMailDark"}}" width="100%" height="520"></iframe>
<script src="{{script}}"></script>
{{/layout}}`,

  newTenant: `{{#> layout}}
<h1>{{t "tenants.new"}}</h1>
${alert}
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<label for="tenant-name">{{t "tenants.name"}}</label>
<input id="tenant-name" name="name" type="text" required maxlength="200" value="{{name}}"${invalid('name')}>
${msg('name')}
<button type="submit">{{t "tenants.create"}}</button>
</form>
{{/layout}}`,

  administrators: `{{#> layout}}
<h1>{{t "admins.title"}}</h1>
{{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
{{#if canInvite}}
<h2>{{t "admins.invite"}}</h2>
${alert}
<form method="post" action="{{inviteAction}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<label for="invite-email">{{t "admins.email"}}</label>
<input id="invite-email" name="email" type="email" required autocomplete="off" value="{{inviteEmail}}"${invalid('email')}>
${msg('email')}
<label for="invite-role">{{t "admins.role"}}</label>
<select id="invite-role" name="role"${invalid('role')}>{{#each inviteRoles}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{t key}}</option>{{/each}}</select>
${msg('role')}
<label for="invite-locale">{{t "admins.mailLanguage"}}</label>
<select id="invite-locale" name="locale"${invalid('locale')}>{{#each inviteLocales}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{t label}}</option>{{/each}}</select>
${msg('locale')}
<button type="submit">{{t "admins.send"}}</button>
</form>
{{/if}}
<table>
<thead><tr><th scope="col">{{t "admins.email"}}</th><th scope="col">{{t "admins.role"}}</th><th scope="col">{{t "admins.lastSignIn"}}</th>{{#if canInvite}}<th scope="col"><span class="visually-hidden">{{t "admins.remove"}}</span></th>{{/if}}</tr></thead>
<tbody>
{{#each admins}}
<tr><td>{{email}}</td><td>{{t roleKey}}</td><td>{{#if lastSignIn}}{{lastSignIn}}{{else}}{{t "admins.never"}}{{/if}}</td>
{{#if @root.canInvite}}<td><a href="{{roleHref}}">{{t "admins.changeRole"}}</a>
<form method="post" action="{{removeAction}}"><input type="hidden" name="csrf" value="{{@root.csrf}}"><button type="submit" class="secondary" aria-label="{{t "admins.remove"}} {{email}}">{{t "admins.remove"}}</button></form></td>{{/if}}</tr>
{{/each}}
{{#each invitations}}
<tr><td>{{email}}</td><td>{{t roleKey}}</td><td>{{t "admins.pending"}}<br><small>{{t "admins.invitedBy" inviter=invitedBy expires=expires}}</small></td>
{{#if @root.canInvite}}<td><form method="post" action="{{resendAction}}"><input type="hidden" name="csrf" value="{{@root.csrf}}"><button type="submit" class="secondary" aria-label="{{t "admins.resendInvitation" email=email}}">{{t "admins.resend"}}</button></form>
<form method="post" action="{{cancelAction}}"><input type="hidden" name="csrf" value="{{@root.csrf}}"><button type="submit" class="secondary" aria-label="{{t "admins.cancelInvitation"}} {{email}}">{{t "admins.cancelInvitation"}}</button></form></td>{{/if}}</tr>
{{/each}}
</tbody>
</table>
{{/layout}}`,
} as const;

export type ConsolePage = keyof typeof pages;
