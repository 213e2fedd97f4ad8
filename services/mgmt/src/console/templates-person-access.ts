/**
 * The person page's Status and Sessions sections (issue 38), a partial of templates-support.ts's `user` page:
 * its view is `access` (console/person-access.ts personAccessView).
 */
const when = '<time datetime="{{time}}" title="{{utc}}">{{local}}</time>';
const csrf = '<input type="hidden" name="csrf" value="{{@root.csrf}}">';

export const personAccessSections = `{{#with access}}
<h2 id="status">{{t "user.status"}}</h2>
<p>{{#if disabled}}<strong>{{t "user.disabledSince" when=disabledSince}}</strong>{{else}}{{t "user.enabled"}}{{/if}}</p>
{{#if canDisable}}<form method="post" action="{{statusAction}}">${csrf}<input type="hidden" name="disabled" value="{{#if disabled}}false{{else}}true{{/if}}"><button type="submit" class="secondary">{{#if disabled}}{{t "user.enable"}}{{else}}{{t "user.disable"}}{{/if}}</button></form>{{/if}}
<h2 id="sessions">{{t "user.sessions"}}</h2>
{{#if sessions.length}}
<div class="scroll" tabindex="0" role="region" aria-label="{{t "user.sessions"}}"><table>
<thead><tr><th scope="col">{{t "col.device"}}</th><th scope="col">{{t "col.place"}}</th><th scope="col">{{t "col.started"}}</th><th scope="col">{{t "col.lastSeen"}}</th><th scope="col">{{t "col.applications"}}</th></tr></thead>
<tbody>
{{#each sessions}}
<tr><td>{{device}}</td><td>{{place}}</td><td>{{#with started}}${when}{{/with}}</td><td>{{#with lastSeen}}${when}{{/with}}</td><td>{{apps}}</td></tr>
{{/each}}
</tbody>
</table></div>
{{else}}
<p>{{t "user.noSessions"}}</p>
{{/if}}
{{#if canSignOut}}<form method="post" action="{{signOutAction}}">${csrf}<button type="submit" class="secondary">{{t "user.signOutEverywhere"}}</button></form>{{/if}}
{{/with}}`;
