/**
 * The Users search's result for an address with no account (issue 38), data only like templates.ts: the count
 * of its sign-in attempts as a link to them, and Erase attempts for this address (Administrators and Owners).
 */
export const noAccountResult = `{{#if noAccount}}
<p role="status">{{#if noAccount.href}}<a href="{{noAccount.href}}">{{noAccount.label}}</a>{{else}}{{noAccount.label}}{{/if}}</p>
{{#if noAccount.eraseAction}}
<form method="post" action="{{noAccount.eraseAction}}" class="danger-zone">
<input type="hidden" name="csrf" value="{{@root.csrf}}">
<input type="hidden" name="email" value="{{noAccount.email}}">
<p id="erase-attempts-hint" class="hint">{{t "attempts.eraseHint"}}</p>
<button type="submit" class="danger" aria-describedby="erase-attempts-hint">{{t "attempts.erase"}}</button>
</form>
{{/if}}
{{else}}
<p role="status">{{t "users.none" query=query}}</p>
{{/if}}`;

/**
 * A search by the start of an address: the addresses typed in sign-ins that nobody in the tenant has, each
 * with "No account — N sign-in attempts" linking to those attempts (the Activity page filtered by it).
 */
export const typedOnlyResult = `{{#if typedOnly.length}}
<h2 id="typed-only">{{t "attempts.typedOnly"}}</h2>
<ul aria-labelledby="typed-only">
{{#each typedOnly}}<li>{{email}}: <a href="{{href}}">{{label}}</a></li>{{/each}}
</ul>
{{/if}}`;

/** After an erasure: how many records went. */
export const erasedNotice = '{{#if erasedNotice}}<p class="notice" role="status">{{erasedNotice}}</p>{{/if}}';
