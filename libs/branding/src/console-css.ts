/**
 * The Console's part of the one design system: sesame.css (baseCss) comes first and sets the tokens, the
 * type scale, form controls and buttons; this adds only what an application shell needs and a sign-in card
 * does not: the top bar and navigation (one line from 1024 px up, a Menu disclosure on a phone), a content
 * column wide enough for tables, tables, sections and the Danger zone. Kept in this lib beside sesame.css so
 * the Console never copies the hosted pages' rules.
 */
export const CONSOLE_SHELL_CSS = `
/* The Console's shell (libs/branding/src/console-css.ts) */
:root { --page: 72rem; --danger: #b3261e; --danger-text: #fff; }
@media (prefers-color-scheme: dark) { :root { --danger: #f2b8b5; --danger-text: #370b07; } }
body.console { align-items: stretch; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--card); padding: 0.5rem; z-index: 3; }
.shell { position: relative; z-index: 2; background: var(--card); border-bottom: 1px solid var(--line); }
.shell-inner { max-width: var(--page); margin: 0 auto; padding: 0 1.5rem; display: grid; grid-template-columns: minmax(0, 1fr) auto; grid-template-rows: auto auto; align-items: center; column-gap: 1rem; }
.shell-brand { grid-column: 1; grid-row: 1; margin: 0; padding: 0.75rem 0; font-weight: 700; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.shell-tenant { color: var(--muted); font-weight: 600; }
.shell-tenant::before { content: "·"; margin: 0 0.5rem; }
.console-nav { grid-column: 1 / -1; grid-row: 1 / 3; display: grid; grid-template-columns: subgrid; grid-template-rows: subgrid; align-items: center; }
.console-nav ul { list-style: none; margin: 0; padding: 0; }
.console-nav a { text-decoration: none; white-space: nowrap; color: var(--text); }
.console-nav a:hover { color: var(--accent); }
.nav-bar { grid-column: 1 / -1; grid-row: 2; display: flex; flex-wrap: nowrap; gap: 0.125rem; overflow-x: auto; margin: 0 -0.5rem; }
.nav-bar a { display: block; padding: 0.625rem 0.5rem; border-bottom: 3px solid transparent; font-size: var(--size-label); }
.nav-bar a[aria-current="page"] { border-bottom-color: var(--accent); font-weight: 700; }
.shell-account { grid-column: 2; grid-row: 1; display: flex; align-items: center; gap: 0.75rem; }
.shell-account form { display: flex; align-items: center; gap: 0.5rem; margin: 0; }
.shell-account label { margin: 0; font-size: var(--size-small); }
.shell-account select { width: auto; min-height: 2.25rem; padding: 0.25rem 0.5rem; }
.shell-account button { margin: 0; min-height: 2.25rem; padding: 0.25rem 0.75rem; white-space: nowrap; }
.shell-account a { white-space: nowrap; font-size: var(--size-small); }
.who { color: var(--muted); font-size: var(--size-small); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 22rem; }
.nav-menu { display: none; }
.nav-menu summary { list-style: none; cursor: pointer; margin: 0; min-height: 2.75rem; padding: 0.5rem 0.875rem; border: 1px solid var(--line); border-radius: 0.5rem; font-weight: 600; display: flex; align-items: center; gap: 0.5rem; }
.nav-menu summary::-webkit-details-marker { display: none; }
.nav-menu summary::after { content: ""; width: 0.5rem; height: 0.5rem; border: solid currentColor; border-width: 0 2px 2px 0; transform: rotate(45deg) translateY(-2px); }
.nav-menu[open] summary::after { transform: rotate(-135deg) translateY(-2px); }
.nav-menu ul { position: absolute; left: 0; right: 0; top: 100%; background: var(--card); border-bottom: 1px solid var(--line); padding: 0.5rem 1rem 1rem; box-shadow: 0 8px 16px rgb(0 0 0 / 0.12); }
.nav-menu a { display: block; padding: 0.75rem 0.5rem; border-radius: 0.375rem; }
.nav-menu a[aria-current="page"] { font-weight: 700; background: var(--bg); }
@media (max-width: 47.99rem) {
  .shell-inner { padding: 0 1rem; grid-template-rows: auto auto; }
  .nav-bar { display: none; }
  .nav-menu { display: block; grid-column: 2; grid-row: 1; }
  .shell-account { grid-column: 1 / -1; grid-row: 2; flex-wrap: wrap; justify-content: space-between; padding-bottom: 0.625rem; gap: 0.5rem 0.75rem; }
  .who { max-width: 100%; white-space: normal; overflow-wrap: anywhere; }
}
main.page { width: 100%; max-width: var(--page); margin: 0 auto; padding: 1.75rem 1.5rem 3rem; }
@media (max-width: 47.99rem) { main.page { padding: 1.25rem 1rem 2rem; } }
main.page > h1 { margin-bottom: 1rem; }
main.page h2 { margin-top: 2rem; }
main.page h3 { margin-top: 1.25rem; }
main.page form { max-width: 40rem; }
main.page .scroll form, main.page td form, main.page form.filters, main.page .exports form { max-width: none; }
.card.wide { max-width: var(--page); }
body.console > .card { margin: 0 auto 2rem; }
body.console > .brand { text-align: center; }
.section { margin: 1.5rem 0; padding: 1.25rem 1.5rem; background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); }
.section > h2:first-child { margin-top: 0; }
table { width: 100%; border-collapse: collapse; margin-top: 1rem; background: var(--card); }
th, td { text-align: left; padding: 0.625rem 0.75rem; border-bottom: 1px solid var(--line); vertical-align: middle; overflow-wrap: anywhere; }
th { font-size: var(--size-small); color: var(--muted); font-weight: 600; }
td form { margin: 0; display: inline; }
td button { margin: 0; min-height: 2.25rem; padding: 0.25rem 0.75rem; }
.once { border: 2px solid var(--accent); border-radius: var(--radius); padding: 1rem; margin: 1rem 0; background: var(--card); }
.hint { color: var(--muted); font-size: var(--size-small); margin-top: 0.25rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
textarea, select { width: 100%; font: inherit; padding: 0.625rem 0.75rem; border: 1px solid var(--muted); border-radius: 0.5rem; background: var(--card); color: var(--text); }
fieldset { border: 1px solid var(--line); border-radius: 0.5rem; margin: 1rem 0; padding: 0 1rem 1rem; }
legend { padding: 0 0.25rem; font-weight: 600; }
.scroll { overflow-x: auto; }
.raw { overflow: auto; max-height: 30rem; padding: 0.75rem; border: 1px solid var(--line); border-radius: 0.5rem; font-size: 0.8125rem; }
.exports, .pager { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; }
.danger-zone { border: 2px solid var(--danger); border-radius: var(--radius); padding: 0 1.25rem 1.25rem; margin: 2rem 0 1rem; }
main.page .danger-zone h2 { color: var(--danger); margin-top: 1rem; }
button.danger { background: var(--danger); border-color: var(--danger); color: var(--danger-text); }
code { font-size: 0.9em; overflow-wrap: anywhere; }
.checklist { list-style: none; margin: 0; padding: 0; }
.checklist li { display: flex; align-items: flex-start; gap: 0.75rem; padding: 0.75rem 0; }
.checklist li + li { border-top: 1px solid var(--line); }
.checklist .mark { flex: none; display: inline-flex; align-items: center; justify-content: center; width: 1.5rem; height: 1.5rem; border-radius: 50%; border: 2px solid var(--muted); font-size: 0.875rem; font-weight: 700; }
.checklist .done .mark { background: var(--accent); border-color: var(--accent); color: var(--accent-text); }
.checklist .state { display: block; color: var(--muted); font-size: var(--size-small); }
.copy-field { display: flex; gap: 0.5rem; align-items: stretch; }
.copy-field input { flex: 1; min-width: 0; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9375rem; min-height: 2.75rem; }
.copy-field button { margin: 0; }
`;
