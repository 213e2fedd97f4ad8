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
<p class="hint">{{t "attempts.wholeAddress"}}</p>
{{/if}}`;

/** After an erasure: how many records went. */
export const erasedNotice = '{{#if erasedNotice}}<p class="notice" role="status">{{erasedNotice}}</p>{{/if}}';
