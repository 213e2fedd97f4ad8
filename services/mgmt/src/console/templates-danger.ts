/**
 * The confirmation step of a destructive action (issue 37): what will break, the same form again with
 * `confirm=yes`, a confirm button named like the button that led here, and Cancel back to the page.
 */
export const dangerPages = {
  confirmDanger: `{{#> layout}}
<h1>{{heading}}</h1>
<section class="danger-zone" aria-labelledby="danger-zone">
<h2 id="danger-zone">{{t "danger.zone"}}</h2>
<p class="lead" role="alert">{{t breaks}}</p>
{{#if target}}<p>{{t "danger.target" target=target}}</p>{{/if}}
<p>{{t "danger.lead"}}</p>
<form method="post" action="{{action}}">
<input type="hidden" name="csrf" value="{{csrf}}">
{{#each fields}}<input type="hidden" name="{{name}}" value="{{value}}">
{{/each}}<input type="hidden" name="confirm" value="yes">
<button type="submit" class="danger"{{#if buttonName}} aria-label="{{buttonName}}"{{/if}}>{{button}}</button>
<a class="button secondary" href="{{back}}">{{t "danger.cancel"}}</a>
</form>
</section>
{{/layout}}`,
} as const;
