/**
 * The invitation page's template (issue 35): data only, like templates.ts, which merges it. It names who
 * invited, the tenant, the role and the expiry before anyone accepts.
 */
export const invitationPages = {
  invitation: `{{#> layout}}
<h1>{{title}}</h1>
<p class="lead">{{t "invitation.lead" inviter=invitedBy tenant=tenantName email=email}}</p>
<label for="invitation-email">{{t "admins.email"}}</label>
<input id="invitation-email" type="email" value="{{email}}" readonly aria-describedby="invitation-email-hint">
<p id="invitation-email-hint" class="hint">{{t "invitation.emailLocked"}}</p>
<dl>
<dt>{{t "invitation.invitedBy"}}</dt><dd>{{invitedBy}}</dd>
<dt>{{t "invitation.tenant"}}</dt><dd>{{tenantName}}</dd>
<dt>{{t "invitation.role"}}</dt><dd>{{t roleKey}}</dd>
<dt>{{t "invitation.expires"}}</dt><dd>{{expires}}</dd>
</dl>
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
<button type="submit">{{t "invitation.accept"}}</button>
</form>
{{/layout}}`,
} as const;
