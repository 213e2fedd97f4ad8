import { errorAlert as alert, invalidAttrs as invalid, fieldMessage as msg } from './form-problems';
import { erasedNotice, noAccountResult, typedOnlyResult } from './templates-attempts';
import { addPersonLink, peopleList, personPasskeysSections } from './templates-people';
import { personAccessSections } from './templates-person-access';

/**
 * The Users and Activity pages' templates (issue 24), data only like templates.ts, which merges them. Times are
 * `<time>` elements in the viewer's zone with the UTC time in their title.
 */
const when = '<time datetime="{{time}}" title="{{utc}}">{{local}}</time>';
const csrf = '<input type="hidden" name="csrf" value="{{@root.csrf}}">';
const zoneForm = `<form method="get" action="" class="filters zone">
{{#each zone.keep}}<input type="hidden" name="{{name}}" value="{{value}}">{{/each}}
<label for="tz">{{t "zone.label"}}</label>
<input id="tz" name="tz" type="text" value="{{zone.name}}" maxlength="64" autocomplete="off" aria-describedby="tz-hint">
<p id="tz-hint" class="hint">{{t "zone.hint"}}</p>
<button type="submit" class="secondary">{{t "zone.set"}}</button>
</form>`;

/** A table in a scroll region (it scrolls by keyboard too) named by the catalog entry `label`. */
const scrollTable = (
  label: string,
  rows: string,
) => `<div class="scroll" tabindex="0" role="region" aria-label="{{t "${label}"}}"><table>
${rows}
</table></div>`;

/** A part of a person's page: its heading, then the table of `list`, or the sentence `none` when it is empty. */
const listSection = (
  id: string,
  label: string,
  list: string,
  rows: string,
  none: string,
) => `<h2 id="${id}">{{t "${label}"}}</h2>
{{#if ${list}.length}}
${scrollTable(label, rows)}
{{else}}
<p>{{t "${none}"}}</p>
{{/if}}`;

const flowRows = scrollTable(
  'user.signIns',
  `<thead><tr><th scope="col">{{t "col.when"}}</th>{{#if showPerson}}<th scope="col">{{t "col.person"}}</th>{{/if}}<th scope="col">{{t "col.application"}}</th><th scope="col">{{t "col.method"}}</th><th scope="col">{{t "col.device"}}</th><th scope="col">{{t "col.location"}}</th><th scope="col">{{t "col.status"}}</th><th scope="col">{{t "col.outcome"}}</th></tr></thead>
<tbody>
{{#each flows}}
<tr><td><a href="{{href}}" aria-label="{{t "flow.open"}} {{local}}">${when}</a></td>{{#if @root.showPerson}}<td>{{#if personHref}}<a href="{{personHref}}">{{person}}</a>{{else}}{{person}}{{/if}}</td>{{/if}}<td>{{app}}</td><td>{{#if method}}<span title="{{method}}">{{methodLabel}}</span>{{/if}}</td><td>{{device}}</td><td>{{location}}</td><td><span class="status status-{{status}}" title="{{status}}">{{statusLabel}}</span></td><td>{{outcome}}</td></tr>
{{/each}}
</tbody>`,
);

export const supportPages = {
  users: `{{#> layout}}
<h1>{{t "users.title"}}</h1>
${erasedNotice}
${addPersonLink}
${alert}
<form method="get" action="" role="search">
<label for="user-query">{{t "users.find"}}</label>
<input id="user-query" name="query" type="search" value="{{query}}" maxlength="320" autocomplete="off"${invalid('query', 'user-query-hint')}>
${msg('query')}
<p id="user-query-hint" class="hint">{{t "users.hint"}}</p>
<label for="user-app">{{t "users.aliasOf"}}</label>
<select id="user-app" name="app"${invalid('app')}><option value="">{{t "activity.anyApp"}}</option>{{#each apps}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{label}}</option>{{/each}}</select>
${msg('app')}
<button type="submit">{{t "users.search"}}</button>
</form>
{{#if searched}}
{{#if users.length}}
<h2 id="found">{{t "people.found"}}</h2>
<table aria-labelledby="found">
<thead><tr><th scope="col">{{t "users.email"}}</th><th scope="col">{{t "users.userId"}}</th><th scope="col">{{t "users.matchedBy"}}</th></tr></thead>
<tbody>
{{#each users}}<tr><td><a href="{{href}}">{{email}}</a></td><td><code>{{userId}}</code></td><td>{{t matchKey}}</td></tr>{{/each}}
</tbody>
</table>
{{else}}
${noAccountResult}
{{/if}}
${typedOnlyResult}
{{else if listed}}
${peopleList}
{{/if}}
{{/layout}}`,

  user: `{{#> layout}}
<h1>{{user.email}}</h1>
<p class="lead"><code>{{user.userId}}</code></p>
{{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
${personPasskeysSections}
${personAccessSections}
<h2 id="sign-ins">{{t "user.signIns"}}</h2>
{{#if flows.length}}
${flowRows}
<p><a href="{{moreHref}}">{{t "user.moreSignIns"}}</a></p>
{{else}}
<p>{{t "user.noSignIns"}}</p>
{{/if}}
${listSection(
  'devices',
  'user.devices',
  'devices',
  `<thead><tr><th scope="col">{{t "col.name"}}</th><th scope="col">{{t "col.os"}}</th><th scope="col">{{t "col.browser"}}</th><th scope="col">{{t "col.firstSeen"}}</th><th scope="col">{{t "col.lastSeen"}}</th><th scope="col">{{t "col.passkeys"}}</th><th scope="col">{{t "col.actions"}}</th></tr></thead>
<tbody>
{{#each devices}}
<tr><td>{{name}}{{#if blocked}} <strong>({{t "device.blocked"}})</strong>{{/if}}</td><td>{{os}}</td><td>{{browser}}</td><td>{{#with firstSeen}}${when}{{/with}}</td><td>{{#with lastSeen}}${when}{{/with}}</td><td>{{passkeys}}</td>
<td>{{#if @root.canBlock}}<form method="post" action="{{blockAction}}">${csrf}<input type="hidden" name="allowAccess" value="{{#if blocked}}true{{else}}false{{/if}}"><button type="submit" class="secondary" aria-label="{{#if blocked}}{{t "device.unblock"}}{{else}}{{t "device.block"}}{{/if}} {{name}}">{{#if blocked}}{{t "device.unblock"}}{{else}}{{t "device.block"}}{{/if}}</button></form>{{/if}}</td></tr>
{{/each}}
</tbody>`,
  'user.noDevices',
)}
${listSection(
  'applications',
  'user.applications',
  'memberships',
  `<thead><tr><th scope="col">{{t "col.application"}}</th><th scope="col">{{t "col.alias"}}</th><th scope="col">{{t "col.firstLogin"}}</th><th scope="col">{{t "col.lastLogin"}}</th><th scope="col">{{t "col.confirmed"}}</th>{{#if canRemove}}<th scope="col">{{t "col.actions"}}</th>{{/if}}</tr></thead>
<tbody>
{{#each memberships}}
<tr><td>{{appName}}</td><td>{{alias}}</td><td>{{#with firstLogin}}${when}{{/with}}</td><td>{{#with lastLogin}}${when}{{/with}}</td><td>{{#if confirmed}}{{t "yes"}}{{else}}{{t "no"}}{{/if}}</td>
{{#if @root.canRemove}}<td><a href="{{removeHref}}" aria-label="{{t "user.removeApp"}} {{appName}}">{{t "user.removeApp"}}</a></td>{{/if}}</tr>
{{/each}}
</tbody>`,
  'user.noApps',
)}
{{#if canRemove}}<section class="danger-zone" aria-labelledby="danger-zone">
<h2 id="danger-zone">{{t "danger.zone"}}</h2>
<p><a class="button secondary" href="{{removeTenantHref}}">{{t "user.removeTenant"}}</a></p>
</section>{{/if}}
${zoneForm}
{{/layout}}`,

  confirmRemoveUser: `{{#> layout}}
<h1>{{#if app}}{{t "user.removeApp"}}{{else}}{{t "user.removeTenant"}}{{/if}}</h1>
<p class="lead">{{#if app}}{{t "user.confirmRemoveApp" email=email app=app.name}}{{else}}{{t "user.confirmRemoveTenant" email=email}}{{/if}}</p>
<form method="post" action="{{action}}">
${csrf}
{{#if app}}<input type="hidden" name="app" value="{{app.appId}}">{{/if}}
<input type="hidden" name="confirm" value="yes">
<button type="submit">{{t "user.confirm"}}</button>
</form>
<p><a href="{{back}}">{{t "error.back"}}</a></p>
{{/layout}}`,

  flow: `{{#> layout}}
<h1>{{t "flow.title" id=flow.id}}</h1>
<p class="lead">{{flow.outcome}}</p>
<dl>
<dt>{{t "col.when"}}</dt><dd>{{#with when}}${when}{{/with}}</dd>
{{#if person}}<dt>{{t "col.person"}}</dt><dd>{{#if personHref}}<a href="{{personHref}}">{{person}}</a>{{else}}{{person}}{{/if}}</dd>{{/if}}
<dt>{{t "col.application"}}</dt><dd>{{app}}</dd>
<dt>{{t "col.method"}}</dt><dd>{{#if flow.authMethodType}}<span title="{{flow.authMethodType}}">{{methodLabel}}</span>{{/if}}</dd>
<dt>{{t "col.status"}}</dt><dd><span title="{{flow.status}}">{{statusLabel}}</span></dd>
</dl>
<h2>{{t "flow.timeline"}}</h2>
<ol class="events">
{{#each timeline}}<li>{{#with at}}${when}{{/with}} — {{sentence}} <code>{{action}}</code>{{#if clientIp}} <span class="hint">{{clientIp}}</span>{{/if}}</li>{{/each}}
</ol>
<h2>{{t "flow.devices"}}</h2>
<dl>
<dt>{{t "flow.accessing"}}</dt><dd>{{flow.device}}</dd>
{{#if authenticatingDevice}}<dt>{{t "flow.authenticating"}}</dt><dd>{{authenticatingDevice}}</dd>{{/if}}
<dt>{{t "flow.ip"}}</dt><dd>{{flow.ip}}</dd>
<dt>{{t "col.location"}}</dt><dd>{{flow.location}}</dd>
</dl>
<h2>{{t "flow.raw"}}</h2>
{{#if canExport}}<form method="post" action="{{exportAction}}">${csrf}<button type="submit" name="format" value="json" class="secondary">{{t "export.json"}}</button></form>{{/if}}
<pre class="raw" tabindex="0" role="region" aria-label="{{t "flow.raw"}}">{{raw}}</pre>
{{/layout}}`,

  activity: `{{#> layout}}
<h1>{{t "activity.title"}}</h1>
${alert}
<form method="get" action="" class="filters">
<label for="f-app">{{t "col.application"}}</label>
<select id="f-app" name="app"${invalid('app')}><option value="">{{t "activity.anyApp"}}</option>{{#each apps}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{label}}</option>{{/each}}</select>
${msg('app')}
<label for="f-status">{{t "col.status"}}</label>
<select id="f-status" name="status"${invalid('status')}><option value="">{{t "activity.anyStatus"}}</option>{{#each statuses}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{t label}}</option>{{/each}}</select>
${msg('status')}
<label for="f-type">{{t "activity.flowType"}}</label>
<select id="f-type" name="flowType"${invalid('flowType')}><option value="">{{t "activity.anyFlowType"}}</option>{{#each flowTypes}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{t label}}</option>{{/each}}</select>
${msg('flowType')}
<label for="f-method">{{t "col.method"}}</label>
<select id="f-method" name="method"${invalid('method')}><option value="">{{t "activity.anyMethod"}}</option>{{#each methods}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{t label}}</option>{{/each}}</select>
${msg('method')}
<label for="f-from">{{t "activity.from"}}</label>
<input id="f-from" name="from" type="date" value="{{filter.from}}"${invalid('from')}>
${msg('from')}
<label for="f-to">{{t "activity.to"}}</label>
<input id="f-to" name="to" type="date" value="{{filter.to}}"${invalid('to')}>
${msg('to')}
<label for="f-user">{{t "activity.user"}}</label>
<input id="f-user" name="user" type="text" value="{{filter.user}}" maxlength="256" autocomplete="off"${invalid('user')}>
${msg('user')}
<label for="f-email">{{t "activity.email"}}</label>
<input id="f-email" name="email" type="email" value="{{filter.email}}" maxlength="254" autocomplete="off"${invalid('email')}>
${msg('email')}
<button type="submit">{{t "activity.filter"}}</button>
</form>
{{#if canExport}}
<form method="post" action="{{exportAction}}" class="exports">
${csrf}
{{#each exportKeep}}<input type="hidden" name="{{name}}" value="{{value}}">{{/each}}
<button type="submit" name="format" value="csv" class="secondary">{{t "export.csv"}}</button>
<button type="submit" name="format" value="json" class="secondary">{{t "export.json"}}</button>
</form>
{{/if}}
{{#if flows.length}}
${flowRows}
{{else}}
<p role="status">{{t "activity.none"}}</p>
{{/if}}
<nav class="pager" aria-label="{{t "activity.title"}}">
{{#if newerHref}}<a href="{{newerHref}}" rel="prev">{{t "activity.newer"}}</a>{{/if}}
{{#if nextHref}}<a href="{{nextHref}}" rel="next">{{t "activity.next"}}</a>{{/if}}
</nav>
${zoneForm}
{{/layout}}`,
} as const;
