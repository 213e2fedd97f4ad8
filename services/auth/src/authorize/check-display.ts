/**
 * display (OIDC Core 3.1.2.1): every value is accepted and every one gets the same pages (page, popup, touch,
 * wap are all rendered as `page`); Core says a display value the OP does not support must not be an error, so
 * an unknown one is ignored too. Nothing is returned: no page depends on it.
 */
export function checkDisplay(_display: string | undefined): void {}
