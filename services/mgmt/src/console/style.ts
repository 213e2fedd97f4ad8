import { createHash } from 'node:crypto';
import { CONSOLE_SHELL_CSS, baseCss } from '@sesame/branding';

/**
 * The console's one stylesheet, both parts from @sesame/branding: the hosted pages' base stylesheet
 * (sesame.css, the same file auth serves: same tokens, type scale and components) followed by the
 * application shell's part (console-css.ts: top bar, navigation, wide content, tables).
 */
/** The pages' own parts (the shell is @sesame/branding's): application kinds, Connect your app, field
 * errors, Advanced, Branding's colour fields. */
const PAGE_CSS = `
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
#app-jwks { font-family: ui-monospace, monospace; font-size: 0.8125rem; }
.field-error { color: #b3261e; font-size: 0.875rem; margin-top: 0.25rem; }
[aria-invalid="true"] { border-color: #b3261e; }
@media (prefers-color-scheme: dark) { .field-error { color: #f2b8b5; } [aria-invalid="true"] { border-color: #f2b8b5; } }
.colour-field { display: flex; gap: 0.5rem; align-items: center; }
.colour-field input[type="color"] { flex: 0 0 3rem; width: 3rem; height: 2.75rem; padding: 0.125rem; }
.colour-field input[hidden] { display: none; }
`;

export const CONSOLE_CSS = `${baseCss().toString('utf8')}${CONSOLE_SHELL_CSS}${PAGE_CSS}`;

/** Served under a content hash, so it can be cached for good. */
export const CONSOLE_CSS_NAME = `console-${createHash('sha256').update(CONSOLE_CSS).digest('hex').slice(0, 16)}.css`;
