import { oauthErrors as problems } from '@sesame/oauth';
import type { directory } from '@sesame/proto';

export const MAX_AUX_LINK = 2000;
export const MAX_AUX_LINK_TITLE = 100;

function isCanonicalUrl(value: string): boolean {
  try {
    return new URL(value).href === value;
  } catch {
    return false;
  }
}

/**
 * svc_aux_link and its title (spec 4.2): the link must begin with https://, end with /, and begin with the
 * prefix configured for the application; with no prefix configured no link is allowed. The link must be
 * written as a URL parser would write it back, so dot segments (`/app/../other/`) or an odd host spelling
 * cannot start with the prefix yet lead elsewhere. A title needs a link.
 */
export function checkAuxLink(
  link: string | undefined,
  title: string | undefined,
  client: directory.Client,
): { url: string; title?: string } | undefined {
  if (link === undefined) {
    if (title !== undefined) throw problems.invalidRequest('svc_aux_link_title requires svc_aux_link');
    return undefined;
  }
  if (!client.auxLinkPrefix) {
    throw problems.invalidRequest('svc_aux_link is not allowed: no prefix is configured for this client');
  }
  if (link.length > MAX_AUX_LINK) {
    throw problems.invalidRequest(`svc_aux_link must be at most ${MAX_AUX_LINK} characters`);
  }
  if (!link.startsWith('https://') || !link.endsWith('/') || !isCanonicalUrl(link) || link.includes('#')) {
    throw problems.invalidRequest('svc_aux_link must be an https:// URL ending with /');
  }
  if (!link.startsWith(client.auxLinkPrefix)) {
    throw problems.invalidRequest('svc_aux_link must start with the prefix configured for this client');
  }
  if (title !== undefined && [...title].length > MAX_AUX_LINK_TITLE) {
    throw problems.invalidRequest(`svc_aux_link_title must be at most ${MAX_AUX_LINK_TITLE} characters`);
  }
  return title === undefined ? { url: link } : { url: link, title };
}
