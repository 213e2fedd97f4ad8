import { oauthErrors } from '@sesame/oauth';

const FORM = 'application/x-www-form-urlencoded';

/** /token takes application/x-www-form-urlencoded only (spec 4.1); JSON or anything else is refused. */
export function checkFormContentType(contentType: string | undefined): void {
  const media = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  if (media !== FORM) throw oauthErrors.invalidRequest(`Content-Type must be ${FORM}`);
}
