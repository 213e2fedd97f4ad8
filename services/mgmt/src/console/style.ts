import { createHash } from 'node:crypto';
import { baseCss } from '@sesame/branding';

/**
 * The console's one stylesheet: the hosted pages' base stylesheet (@sesame/branding's sesame.css, the same
 * file auth serves: same tokens and components) followed by the console's own layout rules.
 */
export const CONSOLE_CSS = `${baseCss().toString('utf8')}
/* Console additions: a wider card, the navigation landmark, tables, one-time secrets. */
.card.wide { max-width: 60rem; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--card); padding: 0.5rem; z-index: 1; }
.console-nav { width: 100%; max-width: 60rem; display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: space-between; padding: 0 1rem 1rem; }
.console-nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; margin: 0; padding: 0; }
.console-nav a[aria-current="page"] { font-weight: 700; text-decoration: underline; }
.console-nav .signout { display: flex; gap: 0.75rem; align-items: center; margin: 0; }
.console-nav .signout button { width: auto; margin: 0; }
.who { color: var(--muted); font-size: 0.875rem; }
table { width: 100%; border-collapse: collapse; margin-top: 1rem; }
th, td { text-align: left; padding: 0.5rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
td form { margin: 0; }
td button { width: auto; margin: 0; }
.once { border: 2px solid var(--accent); border-radius: var(--radius); padding: 1rem; margin: 1rem 0; }
.notice { border-left: 4px solid var(--accent); padding-left: 0.75rem; }
.hint { color: var(--muted); font-size: 0.875rem; margin-top: 0.25rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
textarea, select { width: 100%; font: inherit; padding: 0.625rem 0.75rem; border: 1px solid var(--line); border-radius: 0.5rem; background: var(--card); color: var(--text); }
.scroll { overflow-x: auto; }
.raw { overflow: auto; max-height: 30rem; padding: 0.75rem; border: 1px solid var(--line); border-radius: 0.5rem; font-size: 0.8125rem; }
.exports, .pager { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; }
.exports button { width: auto; }
.danger-zone { border: 2px solid #b3261e; border-radius: var(--radius); padding: 0 1rem 1rem; margin: 2rem 0 1rem; }
.danger-zone h2 { color: #b3261e; }
button.danger { background: #b3261e; border-color: #b3261e; color: #fff; }
/* Applications (issue 37): kinds, Connect your app's Copy rows and snippets, field errors, Advanced. */
.kinds { border: 0; padding: 0; margin: 0 0 1rem; }
.kinds legend { font-weight: 600; margin-bottom: 0.5rem; }
.kind { display: grid; grid-template-columns: auto 1fr; gap: 0 0.5rem; align-items: baseline; margin: 0.5rem 0; }
.kind input { width: auto; margin: 0; }
.kind label { margin: 0; }
.kind .hint { grid-column: 2; margin: 0; }
.check { display: flex; gap: 0.5rem; align-items: center; margin-top: 1rem; }
.check input { width: auto; margin: 0; }
.check label { margin: 0; }
.copy-row { display: flex; gap: 0.5rem; align-items: center; }
.copy-row input { flex: 1; min-width: 0; }
button.copy { width: auto; margin: 0; white-space: nowrap; }
.snippet { margin: 0.5rem 0; }
.snippet summary { cursor: pointer; font-weight: 600; padding: 0.25rem 0; }
.snippet pre { overflow-x: auto; padding: 0.75rem; border: 1px solid var(--line); border-radius: 0.5rem; font-size: 0.8125rem; }
.advanced { margin: 1.5rem 0 1rem; }
.advanced > summary { cursor: pointer; font-weight: 600; }
.field-error { color: #b3261e; font-size: 0.875rem; margin-top: 0.25rem; }
[aria-invalid="true"] { border-color: #b3261e; }
@media (prefers-color-scheme: dark) { .field-error { color: #f2b8b5; } [aria-invalid="true"] { border-color: #f2b8b5; } }
.colour-field { display: flex; gap: 0.5rem; align-items: center; }
.colour-field input[type="color"] { flex: 0 0 3rem; width: 3rem; height: 2.75rem; padding: 0.125rem; }
.colour-field input[hidden] { display: none; }
`;

/** Served under a content hash, so it can be cached for good. */
export const CONSOLE_CSS_NAME = `console-${createHash('sha256').update(CONSOLE_CSS).digest('hex').slice(0, 16)}.css`;
