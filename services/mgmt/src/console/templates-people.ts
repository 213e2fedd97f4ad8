import { errorAlert as alert, invalidAttrs as invalid, fieldMessage as msg } from './form-problems';

/**
 * Issue 38's templates: the Users page's list of people (a partial of templates-support.ts's `users` page,
 * shown when nothing is searched), the person page's created date, phone number and Passkeys (a partial of its
 * `user` page, view `people`: console/page-people.ts passkeysView), and the Add a person page.
 */
const when = '<time datetime="{{time}}" title="{{utc}}">{{local}}</time>';
const csrf = '<input type="hidden" name="csrf" value="{{@root.csrf}}">';

/** Add a person, for the roles that may; then the people newest first and the Next page link. */
export const peopleList = `{{#if people.length}}
<h2 id="people">{{t "people.title"}}</h2>
<div class="scroll" tabindex="0" role="region" aria-labelledby="people"><table>
<thead><tr><th scope="col">{{t "users.email"}}</th><th scope="col">{{t "people.created"}}</th><th scope="col">{{t "people.lastSignIn"}}</th><th scope="col">{{t "col.status"}}</th><th scope="col">{{t "col.passkeys"}}</th></tr></thead>
<tbody>
{{#each people}}
<tr><td><a href="{{href}}">{{email}}</a></td><td>{{#with created}}${when}{{/with}}</td><td>{{#if lastSignIn}}{{#with lastSignIn}}${when}{{/with}}{{else}}{{t "people.never"}}{{/if}}</td><td>{{#if disabled}}<strong>{{t statusKey}}</strong>{{else}}{{t statusKey}}{{/if}}</td><td>{{passkeys}}</td></tr>
{{/each}}
</tbody>
</table></div>
{{else}}
<p>{{t "people.none"}}</p>
{{/if}}
{{#if nextHref}}<nav class="pager" aria-label="{{t "people.pages"}}">{{#if firstHref}}<a href="{{firstHref}}">{{t "people.first"}}</a>{{/if}}<a href="{{nextHref}}" rel="next">{{t "people.next"}}</a></nav>
{{else if firstHref}}<nav class="pager" aria-label="{{t "people.pages"}}"><a href="{{firstHref}}">{{t "people.first"}}</a></nav>{{/if}}`;

/** The Users page's Add a person link (above the search). */
export const addPersonLink = `{{#if addHref}}<p><a class="button secondary" href="{{addHref}}">{{t "people.add"}}</a></p>{{/if}}`;

export const personPasskeysSections = `{{#with people}}
<dl>
{{#if created}}<dt>{{t "people.created"}}</dt><dd>{{#with created}}${when}{{/with}}</dd>{{/if}}
<dt id="phone">{{t "user.phone"}}</dt><dd>{{#if phone}}<span>{{phone}}</span>{{#if canRemovePhone}}<form method="post" action="{{phoneAction}}">${csrf}<button type="submit" class="secondary">{{t "phone.remove"}}</button></form>{{/if}}{{else}}{{t "user.noPhone"}}{{/if}}</dd>
</dl>
<h2 id="passkeys">{{t "user.passkeys"}}</h2>
{{#if passkeys.length}}
<div class="scroll" tabindex="0" role="region" aria-labelledby="passkeys"><table>
<thead><tr><th scope="col">{{t "col.name"}}</th><th scope="col">{{t "people.created"}}</th><th scope="col">{{t "col.lastUsed"}}</th><th scope="col">{{t "col.device"}}</th>{{#if canRemovePasskey}}<th scope="col">{{t "col.actions"}}</th>{{/if}}</tr></thead>
<tbody>
{{#each passkeys}}
<tr><td id="passkey-{{@index}}">{{name}}</td><td>{{#with created}}${when}{{/with}}</td><td>{{#if lastUsed}}{{#with lastUsed}}${when}{{/with}}{{else}}{{t "people.never"}}{{/if}}</td><td>{{device}}</td>
{{#if ../canRemovePasskey}}<td><form method="post" action="{{removeAction}}">${csrf}<button type="submit" class="secondary" aria-describedby="passkey-{{@index}}">{{t "passkey.remove"}}</button></form></td>{{/if}}</tr>
{{/each}}
</tbody>
</table></div>
{{else}}
<p>{{t "user.noPasskeys"}}</p>
{{/if}}
{{/with}}`;

export const peoplePages = {
  addPerson: `{{#> layout}}
<h1>{{t "people.add"}}</h1>
{{#if notice}}<p class="notice" role="status">{{notice}}</p>{{/if}}
<p class="lead">{{t "people.addLead"}}</p>
${alert}
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<label for="person-email">{{t "people.email"}}</label>
<input id="person-email" name="email" type="email" required maxlength="254" autocomplete="off" value="{{email}}"${invalid('email')}>
${msg('email')}
<label for="person-app">{{t "people.app"}}</label>
<select id="person-app" name="app" required${invalid('app')}><option value="">{{t "people.chooseApp"}}</option>{{#each apps}}<option value="{{value}}"{{#if selected}} selected{{/if}}>{{label}}</option>{{/each}}</select>
${msg('app')}
<button type="submit">{{t "people.send"}}</button>
</form>
<p><a href="{{back}}">{{t "users.title"}}</a></p>
{{/layout}}`,
} as const;
