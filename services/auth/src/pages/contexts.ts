// Over 300 lines on purpose: one context builder per page, each a few lines, next to each other so a page's
// view and its context read together; shared choices already live in context-choices.ts.
import { type Locale, hasMessage, translate } from '../i18n';
import { codeFieldChoices, consentTitle } from './context-choices';
import { numberMatchContext } from './number-match-context';
import type { PageName, PageViews } from './views';

/**
 * View model → template context. Every choice (which error text, singular or plural, fallbacks, icon
 * files) is made here so the templates only print. Templates compile in strict mode, so every field
 * they read is present here (null when absent).
 */
export interface ContextTools {
  locale: Locale;
  assetUrl(name: string): string;
}

export type Context = Record<string, unknown> & { title: string };

/** Forms and links go only to same-origin paths: `/x`, never `//host`, `/\host` or a full URL. */
export function samePath(url: string): string {
  if (!/^\/(?![/\\])[^\s]*$/.test(url)) throw new Error(`not a same-origin path: ${JSON.stringify(url)}`);
  return url;
}

const optionalPath = (url: string | undefined) => (url === undefined ? null : samePath(url));

/**
 * What the two one-time code pages (the email code's, the SMS code's) share: the title of their catalog prefix,
 * the field's script (paste, submit at six digits, the resend timer), the verify and Send a new code forms, and
 * the field's error, attempts left and resend wait (when the code is dead, Send a new code comes first).
 */
function codePage(
  { locale, assetUrl }: ContextTools,
  prefix: 'emailCode' | 'phoneCode',
  v: PageViews['email-code'] | PageViews['phone-code'],
) {
  return {
    title: translate(locale, `${prefix}.title`),
    scripts: [assetUrl('code-input.js')],
    csrf: v.csrf,
    verifyAction: samePath(v.verifyAction),
    resendAction: samePath(v.resendAction),
    resent: v.resent === true,
    ...codeFieldChoices(locale, prefix, v),
  };
}

// The RP's URLs on the completion page: mgmt checked them against the app; still, nothing but a web or
// reverse-domain app URL is ever printed as a link (no javascript:, data:, file:).
const RP_SCHEME = /^(https?:|[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:)$/;
function rpUrl(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return RP_SCHEME.test(parsed.protocol) ? parsed.href : null;
  } catch {
    return null;
  }
}

const QR_KEYS = {
  'sign-in': ['mobileQr.title', 'mobileQr.text', 'mobileQr.opened', 'mobileQr.expired'],
  enroll: [
    'mobileQr.enroll.title',
    'mobileQr.enroll.text',
    'mobileQr.enroll.opened',
    'mobileQr.enroll.expired',
  ],
  register: [
    'mobileQr.register.title',
    'mobileQr.enroll.text',
    'mobileQr.enroll.opened',
    'mobileQr.register.expired',
  ],
} as const;
function qrTexts(locale: Locale, purpose: keyof typeof QR_KEYS) {
  const [title, textKey, openedKey, expiredKey] = QR_KEYS[purpose];
  return { title: translate(locale, title), textKey, openedKey, expiredKey };
}

/** Back to the app: only a web or app URL is printed (rpUrl), else no link at all. */
function backLink(back: { appName: string; url: string } | undefined) {
  const url = rpUrl(back?.url);
  return back && url ? { appName: back.appName, url } : null;
}

type Builders = { [P in PageName]: (view: PageViews[P], tools: ContextTools) => Context };

export const contexts: Builders = {
  identify: (v, { locale, assetUrl }) => ({
    title: translate(locale, 'identify.title'),
    scripts: v.passkey ? [assetUrl('passkeys.js')] : [],
    appName: v.appName,
    action: samePath(v.action),
    csrf: v.csrf,
    email: v.email ?? '',
    errorKey: v.error ? `identify.error.${v.error}` : null,
    passkey: v.passkey
      ? { optionsUrl: samePath(v.passkey.optionsUrl), verifyUrl: samePath(v.passkey.verifyUrl) }
      : null,
    mobileAction: optionalPath(v.mobileAction),
    mobileIsSecondary: v.mobileIsSecondary === true,
  }),
  'passkey-offer': (v, { locale, assetUrl }) => ({
    title: translate(locale, 'passkeyOffer.title'),
    scripts: [assetUrl('passkeys.js')],
    appName: v.appName,
    email: v.email,
    csrf: v.csrf,
    optionsUrl: samePath(v.optionsUrl),
    verifyUrl: samePath(v.verifyUrl),
    notNowAction: samePath(v.notNowAction),
  }),
  'select-account': (v, { locale }) => ({
    title: translate(locale, 'selectAccount.title', { appName: v.appName }),
    scripts: [],
    appName: v.appName,
    email: v.email,
    csrf: v.csrf,
    action: samePath(v.action),
  }),
  'enroll-passkey': (v, { locale, assetUrl }) => ({
    title: translate(locale, 'enroll.title'),
    scripts: [assetUrl('passkeys.js')],
    appName: v.appName,
    email: v.email ?? null,
    csrf: v.csrf,
    optionsUrl: samePath(v.optionsUrl),
    verifyUrl: samePath(v.verifyUrl),
    cancelAction: samePath(v.cancelAction),
    phoneUrl: optionalPath(v.phoneUrl),
  }),
  'email-code': (v, tools) => ({
    ...codePage(tools, 'emailCode', v),
    email: v.email,
    magicLinkAction: samePath(v.magicLinkAction),
    changeEmailUrl: samePath(v.changeEmailUrl),
  }),
  'magic-link-sent': (v, { locale, assetUrl }) => ({
    title: translate(locale, 'magicLinkSent.title'),
    scripts: [assetUrl('flow-wait.js')],
    email: v.email,
    statusUrl: samePath(v.statusUrl),
    continueUrl: samePath(v.continueUrl),
    expiresAt: String(Math.trunc(v.expiresAt)),
    restartUrl: optionalPath(v.restartUrl),
    matchCode: v.matchCode ?? null,
    back: backLink(v.back),
  }),
  'magic-link-confirm': (v, { locale }) => ({
    title: translate(locale, 'magicLinkConfirm.title'),
    appName: v.appName,
    email: v.email,
    action: samePath(v.action),
    csrf: v.csrf,
  }),
  'ciba-start': (v, { locale }) => ({
    title: translate(locale, 'cibaStart.title'),
    appName: v.appName,
    bindingMessage: v.bindingMessage ?? null,
    action: samePath(v.action),
    csrf: v.csrf,
  }),
  phone: (v, { locale }) => ({
    title: translate(locale, 'phone.title'),
    appName: v.appName,
    action: samePath(v.action),
    csrf: v.csrf,
    phone: v.phone ?? '',
    errorKey: v.error ? `phone.error.${v.error}` : null,
  }),
  'phone-code': (v, tools) => ({
    ...codePage(tools, 'phoneCode', v),
    phone: v.phone,
    changePhoneUrl: samePath(v.changePhoneUrl),
  }),
  'mobile-qr': (v, { locale, assetUrl }) => ({
    // A sign-in's QR signs in on the phone; an enrollment's or a registration's creates a passkey there.
    ...qrTexts(locale, v.purpose ?? 'sign-in'),
    scripts: [assetUrl('flow-wait.js'), ...(v.openBy && !v.opened ? [assetUrl('qr-controls.js')] : [])],
    appName: v.appName,
    // Base64 of the server's SVG: whatever the markup, it cannot leave the data: URL.
    qrImage: `data:image/svg+xml;base64,${Buffer.from(v.qrSvg).toString('base64')}`,
    linkPath: samePath(v.linkPath),
    csrf: v.csrf,
    emailInsteadAction: optionalPath(v.emailInsteadAction),
    cancelAction: optionalPath(v.cancelAction),
    linkText: v.linkText,
    seconds: String(v.seconds),
    statusUrl: samePath(v.statusUrl),
    continueUrl: samePath(v.continueUrl),
    expiresAt: String(Math.trunc(v.expiresAt)),
    opened: v.opened === true,
    openBy: v.openBy === undefined ? null : String(Math.trunc(v.openBy)),
    newCodeAction: optionalPath(v.newCodeAction),
    // /authorize checked the prefix; anything that is not an https URL ending in / is not shown.
    auxLink:
      v.auxLink && /^https:\/\/[^\s"'<>]+\/$/.test(v.auxLink.href)
        ? { href: v.auxLink.href, title: v.auxLink.title ?? null }
        : null,
    matchCode: v.matchCode ?? null,
  }),
  'qr-expired': (v, { locale }) => ({
    title: translate(locale, 'mobileQr.codeExpired.title'),
    appName: v.appName,
    seconds: String(v.seconds),
    csrf: v.csrf,
    newCodeAction: samePath(v.newCodeAction),
    emailInsteadAction: optionalPath(v.emailInsteadAction),
    cancelAction: samePath(v.cancelAction),
    backAction: samePath(v.backAction),
  }),
  'mobile-done': (v, { locale }) => {
    const key = {
      done: 'mobileDone',
      declined: 'mobileDone.declined',
      refused: 'mobileDone.refused',
      mismatch: 'mobileDone.mismatch',
    }[v.outcome ?? 'done'];
    return { title: translate(locale, `${key}.title`), textKey: `${key}.text` };
  },
  'register-start': (v, { locale }) => ({
    title: translate(locale, 'registerStart.title'),
    appName: v.appName,
    email: v.email,
    customMessage: v.customMessage ?? null,
    action: samePath(v.action),
    csrf: v.csrf,
  }),
  'register-passkey': (v, { locale, assetUrl }) => ({
    title: translate(locale, 'registerPasskey.title'),
    scripts: [assetUrl('passkeys.js')],
    appName: v.appName,
    email: v.email,
    customMessage: v.customMessage ?? null,
    csrf: v.csrf,
    optionsUrl: samePath(v.optionsUrl),
    verifyUrl: samePath(v.verifyUrl),
    notNowAction: optionalPath(v.notNowAction),
    mobileAction: optionalPath(v.mobileAction),
    // Without Not now (the phone's page) the error cannot point to it.
    failedKey: v.notNowAction ? 'registerPasskey.failed' : 'registerPasskey.failedRetry',
  }),
  'register-complete': (v, { locale }) => {
    const linkUrl = rpUrl(v.link?.url);
    return {
      title: translate(locale, 'registerComplete.title'),
      appName: v.appName,
      completionText: v.completionText ?? null,
      secondaryMessage: v.secondaryMessage ?? null,
      onPhone: v.onPhone === true,
      link: linkUrl && v.link ? { url: linkUrl, label: v.link.label } : null,
      backUrl: rpUrl(v.backUrl),
    };
  },
  'number-match': (v, { locale }) => numberMatchContext(v, locale, samePath(v.action)),
  'register-invalid': (_, { locale }) => ({ title: translate(locale, 'registerInvalid.title') }),
  welcome: (v, { locale }) => {
    // Only an http(s) URL is linked; anything else leaves the console link out.
    const url = rpUrl(v.consoleUrl);
    const consoleUrl = url && /^https?:/.test(url) ? url : null;
    return {
      title: translate(locale, 'welcome.title'),
      consoleUrl,
      consoleText: v.consoleUrl,
      discoveryUrl: samePath(v.discoveryUrl),
      outboxUrl: optionalPath(v.outboxUrl),
    };
  },
  'magic-link-done': (_, { locale }) => ({ title: translate(locale, 'magicLinkDone.title') }),
  'link-invalid': (v, { locale }) => ({
    title: translate(locale, 'linkInvalid.title'),
    restartUrl: optionalPath(v.restartUrl),
  }),
  consent: (v, { locale, assetUrl }) => {
    const attributes = v.approval?.attributes ?? [];
    if (attributes.length > 2) throw new Error('svc_approval shows at most 2 attributes');
    return {
      title: consentTitle(locale, v),
      appName: v.appName,
      notYouAction: optionalPath(v.notYouAction),
      action: samePath(v.action),
      csrf: v.csrf,
      email: v.email ?? null,
      scopeKeys: v.scopes.map((scope) => `consent.scope.${scope}`),
      customMessage: v.customMessage ?? null,
      bindingMessage: v.bindingMessage === true,
      psd2: v.psd2 ?? null,
      approval: v.approval
        ? {
            main: v.approval.mainAttribute ?? null,
            attributes: attributes.map(({ label, value, icon = 'Payment' }) => ({
              label,
              value,
              iconUrl: assetUrl(`icons/${icon}.svg`),
              iconAltKey: `consent.icon.${icon}`,
            })),
          }
        : null,
    };
  },
  error: (v, { locale }) => {
    const titleKey = hasMessage(v.title) ? v.title : 'error.generic.title';
    return {
      title: translate(locale, titleKey),
      messageKey: hasMessage(v.message) ? v.message : 'error.generic.message',
      detailKey: v.detail && hasMessage(v.detail) ? v.detail : null,
      restartUrl: optionalPath(v.restartUrl),
      back: backLink(v.back),
    };
  },
  done: (v, { locale }) => ({
    title: translate(locale, v.title && hasMessage(v.title) ? v.title : 'done.title'),
    messageKey: v.message && hasMessage(v.message) ? v.message : 'done.text',
  }),
  'logout-confirm': (v, { locale }) => ({
    title: translate(locale, 'logout.confirm.title'),
    appName: v.appName ?? null,
    csrf: v.csrf,
    action: samePath(v.action),
  }),
};
