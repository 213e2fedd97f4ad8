import { PROMPT_VALUES, type PromptValue, oauthErrors as problems } from '@sesame/oauth';

const supported: ReadonlySet<string> = new Set(PROMPT_VALUES);

/**
 * prompt (OIDC Core 3.1.2.1): any of none, login, consent, select_account, each once, in the caller's order,
 * returned space-separated (`login`, `login consent`). `none` with any other value is invalid_request, as is
 * an unknown value. What each value does is decided at sign-in (journeys/sign-in/prompt.ts).
 */
export function checkPrompt(prompt: string | undefined): string | undefined {
  if (prompt === undefined) return undefined;
  const values = [...new Set(prompt.split(' ').filter(Boolean))];
  if (values.length === 0) return undefined;
  const unknown = values.find((value) => !supported.has(value));
  if (unknown !== undefined)
    throw problems.invalidRequest(`prompt must be among ${PROMPT_VALUES.join(', ')}`);
  if (values.includes('none') && values.length > 1)
    throw problems.invalidRequest('prompt none must not be combined with other values');
  return values.join(' ');
}

/** Does the request's (validated) prompt contain this value? */
export function hasPrompt(request: { prompt?: string }, value: PromptValue): boolean {
  return request.prompt?.split(' ').includes(value) ?? false;
}
