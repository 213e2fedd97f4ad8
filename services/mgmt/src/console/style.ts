import { createHash } from 'node:crypto';

/**
 * The console's one stylesheet: the hosted pages' design (same tokens and components) plus console layout.
 * Known debt: its first ~280 lines repeat services/auth/src/pages/assets/sesame.css, because services may not
 * import each other and auth's stylesheet is an asset file its build copies. One stylesheet in a lib, served
 * by both, is the fix (the branding issue restyles both anyway). Over 300 lines because it is that copy.
 */
export const CONSOLE_CSS = `/* The one stylesheet of the hosted pages: system fonts, no framework, light and dark. */
:root {
  color-scheme: light dark;
  --bg: #f3f4f6;
  --card: #fff;
  --text: #111827;
  --muted: #4b5563;
  --line: #d1d5db;
  --accent: #1d4ed8;
  --accent-text: #fff;
  --error: #b91c1c;
  --error-bg: #fef2f2;
  --focus: #2563eb;
  --radius: 0.75rem;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0b1120;
    --card: #111827;
    --text: #f3f4f6;
    --muted: #9ca3af;
    --line: #374151;
    --accent: #60a5fa;
    --accent-text: #0b1120;
    --error: #fca5a5;
    --error-bg: #2a1215;
    --focus: #93c5fd;
  }
}
*,
*::before,
*::after {
  box-sizing: border-box;
}
html {
  -webkit-text-size-adjust: 100%;
  text-size-adjust: 100%;
}
body {
  margin: 0;
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  align-items: center;
  background: var(--bg);
  color: var(--text);
  font: 1rem / 1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
.brand {
  padding: 1.5rem 1rem 1rem;
  font-weight: 700;
  font-size: 1.125rem;
  letter-spacing: 0.02em;
}
.card {
  width: 100%;
  max-width: 28rem;
  padding: 1.5rem 1.25rem 2rem;
  background: var(--card);
  border: 1px solid var(--line);
  border-radius: var(--radius);
}
@media (max-width: 30rem) {
  .card {
    border-width: 1px 0;
    border-radius: 0;
  }
}
.foot {
  padding: 1.5rem 1rem;
  color: var(--muted);
  font-size: 0.875rem;
}
h1 {
  margin: 0 0 0.5rem;
  font-size: 1.5rem;
  line-height: 1.25;
}
h2 {
  margin: 0 0 0.5rem;
  font-size: 1rem;
}
p {
  margin: 0 0 1rem;
}
.lead {
  color: var(--muted);
  overflow-wrap: anywhere;
}
.hint {
  margin: -0.25rem 0 0.5rem;
  color: var(--muted);
  font-size: 0.875rem;
}
label {
  display: block;
  margin: 1rem 0 0.375rem;
  font-weight: 600;
}
input {
  display: block;
  width: 100%;
  min-height: 3rem;
  padding: 0.625rem 0.75rem;
  /* 16px or more: iOS Safari zooms into smaller inputs. */
  font: inherit;
  font-size: 1.0625rem;
  color: inherit;
  background: var(--card);
  border: 1px solid var(--muted);
  border-radius: 0.5rem;
}
input.code {
  font-size: 1.5rem;
  letter-spacing: 0.4em;
  font-variant-numeric: tabular-nums;
}
input[aria-invalid="true"] {
  border-color: var(--error);
}
button,
.button {
  display: block;
  width: 100%;
  min-height: 3rem;
  margin: 1.25rem 0 0;
  padding: 0.625rem 1rem;
  font: inherit;
  font-weight: 600;
  text-align: center;
  text-decoration: none;
  color: var(--accent-text);
  background: var(--accent);
  border: 1px solid var(--accent);
  border-radius: 0.5rem;
  cursor: pointer;
}
.secondary {
  color: var(--accent);
  background: transparent;
}
a {
  color: var(--accent);
  text-underline-offset: 0.15em;
}
:focus-visible {
  outline: 3px solid var(--focus);
  outline-offset: 2px;
}
.error {
  margin: 0.5rem 0 0;
  padding: 0.5rem 0.75rem;
  color: var(--error);
  background: var(--error-bg);
  border-left: 4px solid var(--error);
  border-radius: 0.25rem;
}
.notice {
  padding: 0.5rem 0.75rem;
  border-left: 4px solid var(--accent);
}
.more {
  margin-top: 1.5rem;
  padding-top: 0.25rem;
  border-top: 1px solid var(--line);
}
.more p {
  margin: 1.25rem 0 0;
  text-align: center;
}
.more button {
  margin-top: 0.75rem;
}
.status {
  display: flex;
  align-items: center;
  gap: 0.75rem;
}
.spinner {
  flex: none;
  width: 1.25rem;
  height: 1.25rem;
  border: 3px solid var(--line);
  border-top-color: var(--accent);
  border-radius: 50%;
  animation: spin 1s linear infinite;
}
@keyframes spin {
  to {
    transform: rotate(1turn);
  }
}
@media (prefers-reduced-motion: reduce) {
  .spinner {
    animation: none;
  }
}
[hidden] {
  display: none !important;
}
.account {
  color: var(--muted);
  overflow-wrap: anywhere;
}
.panel {
  margin: 1rem 0;
  padding: 1rem;
  border: 1px solid var(--line);
  border-radius: 0.5rem;
}
.message {
  margin: 0;
  white-space: pre-line;
  overflow-wrap: anywhere;
}
.facts {
  margin: 0;
}
.facts div {
  display: flex;
  flex-wrap: wrap;
  justify-content: space-between;
  gap: 0.25rem 1rem;
  padding: 0.375rem 0;
}
.facts div + div {
  border-top: 1px solid var(--line);
}
.facts dt {
  display: flex;
  align-items: center;
  gap: 0.5rem;
  color: var(--muted);
}
.facts dd {
  margin: 0;
  font-weight: 600;
  overflow-wrap: anywhere;
}
.amount {
  font-size: 1.25rem;
  font-variant-numeric: tabular-nums;
}
.main-attribute span {
  display: block;
  color: var(--muted);
}
.main-attribute strong {
  font-size: 1.25rem;
  overflow-wrap: anywhere;
}
.icon {
  flex: none;
}
.scopes {
  padding-left: 1.25rem;
}
.scopes li {
  margin: 0.25rem 0;
}
.decision {
  display: flex;
  flex-direction: column;
}
.decision button + button {
  margin-top: 0.75rem;
}
/* Desktop to mobile: "Use my phone" under the sign-in options; the QR code stays square and scannable (quiet zone on white) in light and dark mode. */
.phone-option {
  margin: 0.75rem 0 0;
}
.qr {
  text-align: center;
}
.qr img {
  max-width: 100%;
  height: auto;
  background: #fff;
  border-radius: 0.25rem;
}
.link a {
  overflow-wrap: anywhere;
}

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
`;

/** Served under a content hash, so it can be cached for good. */
export const CONSOLE_CSS_NAME = `console-${createHash('sha256').update(CONSOLE_CSS).digest('hex').slice(0, 16)}.css`;
