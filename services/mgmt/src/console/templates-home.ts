/**
 * The Home page's template (issue 37): data only, like templates.ts, which merges it. The tenant's
 * getting-started checklist (each step done or not, with a link to do it) and its issuer and discovery URL.
 */
export const homePages = {
  home: `{{#> layout}}
<h1>{{t "home.title"}}</h1>
<p class="lead">{{t "home.lead" tenant=tenantName}}</p>
<section class="section" aria-labelledby="get-started">
<h2 id="get-started">{{t "home.getStarted"}}</h2>
<p class="hint">{{t "home.progress" done=doneCount total=steps.length}}</p>
<ol class="checklist">
{{#each steps}}
<li class="{{#if done}}done{{else}}todo{{/if}}" data-step="{{id}}">
<span class="mark" aria-hidden="true">{{#if done}}✓{{/if}}</span>
<div>
<a href="{{href}}">{{t label}}</a>
<span class="state">{{#if done}}{{t "home.done"}}{{else}}{{t "home.notDone"}}{{/if}}</span>
<p class="hint">{{t hint}}</p>
</div>
</li>
{{/each}}
</ol>
</section>
<section class="section" aria-labelledby="endpoints">
<h2 id="endpoints">{{t "home.endpoints"}}</h2>
<p class="hint">{{t "home.endpointsLead"}}</p>
{{#each endpoints}}
<label for="{{id}}">{{t label}}</label>
<div class="copy-field">
<input id="{{id}}" type="text" readonly value="{{value}}">
<button type="button" class="secondary" data-copy="{{id}}" data-done="{{t "copy.done"}}" aria-label="{{t "copy.of" what=name}}" hidden>{{t "copy.label"}}</button>
</div>
{{/each}}
</section>
{{/layout}}`,
} as const;
