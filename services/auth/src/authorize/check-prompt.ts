import { PROMPT_VALUES, oauthErrors as problems } from '@sesame/oauth';

type Prompt = (typeof PROMPT_VALUES)[number];
const supported: ReadonlySet<string> = new Set(PROMPT_VALUES);

/**
 * Only `login` (spec 4.2): a fresh authentication even with a live session. `none` alone asks for an answer
 * without any page, which this OP never gives: it gets login_required (OIDC Core 3.1.2.6), the answer RP
 * libraries already handle by retrying interactively. Anything else (consent, select_account, none mixed
 * with other values) is invalid_request.
 */
export function checkPrompt(prompt: string | undefined): Prompt | undefined {
  if (prompt === undefined) return undefined;
  const values = new Set(prompt.split(' ').filter(Boolean));
  if (values.size === 1 && values.has('none')) {
    throw problems.loginRequired('prompt none is not supported: signing in needs the user');
  }
  const [value] = values;
  if (values.size !== 1 || value === undefined || !supported.has(value))
    throw problems.invalidRequest(`only prompt ${PROMPT_VALUES.join(', ')} is supported`);
  return value as Prompt;
}
