import { createHash } from 'node:crypto';
import { CONSOLE_SHELL_CSS, baseCss } from '@sesame/branding';

/**
 * The console's one stylesheet, both parts from @sesame/branding: the hosted pages' base stylesheet
 * (sesame.css, the same file auth serves: same tokens, type scale and components) followed by the
 * application shell's part (console-css.ts: top bar, navigation, wide content, tables).
 */
export const CONSOLE_CSS = `${baseCss().toString('utf8')}${CONSOLE_SHELL_CSS}`;

/** Served under a content hash, so it can be cached for good. */
export const CONSOLE_CSS_NAME = `console-${createHash('sha256').update(CONSOLE_CSS).digest('hex').slice(0, 16)}.css`;
