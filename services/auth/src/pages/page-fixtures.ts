// Test support for the page tests: one complete view per page (every optional part filled, so every
// branch of every template renders) and a small reader for the rendered HTML.
import type { PageName, PageViews } from './views';

export const fullViews: { [P in PageName]: PageViews[P] } = {
  identify: {
    appName: 'Acme Shop',
    action: '/flow/f1/identify',
    csrf: 'csrf-1',
    email: 'ada@example.com',
    passkey: { optionsUrl: '/flow/f1/passkey/sign-in-options', verifyUrl: '/flow/f1/passkey/sign-in' },
    mobileAction: '/flow/f1/mobile',
  },
  'passkey-offer': {
    appName: 'Acme Shop',
    email: 'ada@example.com',
    csrf: 'csrf-1',
    optionsUrl: '/flow/f1/passkey/create-options',
    verifyUrl: '/flow/f1/passkey/create',
    notNowAction: '/flow/f1/passkey/not-now',
  },
  'select-account': {
    appName: 'Acme Shop',
    email: 'ada@example.com',
    csrf: 'csrf-1',
    action: '/flow/f1/select-account',
  },
  'enroll-passkey': {
    appName: 'Acme Shop',
    email: 'ada@example.com',
    csrf: 'csrf-1',
    optionsUrl: '/enroll/flow/f1/passkey/create-options',
    verifyUrl: '/enroll/flow/f1/passkey/create',
    cancelAction: '/enroll/flow/f1/cancel',
    phoneUrl: '/enroll/flow/f1/phone',
  },
  'email-code': {
    email: 'ada@example.com',
    csrf: 'csrf-1',
    verifyAction: '/flow/f1/code',
    magicLinkAction: '/flow/f1/magic-link',
    resendAction: '/flow/f1/resend',
    changeEmailUrl: '/flow/f1/identify',
    error: 'wrongCode',
    attemptsLeft: 3,
    resent: true,
  },
  'magic-link-sent': {
    email: 'ada@example.com',
    statusUrl: '/flow/f1/status',
    continueUrl: '/flow/f1/continue',
    expiresAt: 1_900_000_000_000,
    restartUrl: '/flow/f1/identify',
    matchCode: '47',
    back: { appName: 'Acme Shop', url: 'https://rp.example/cb?error=access_denied&state=s' },
  },
  'magic-link-confirm': { appName: 'Acme Shop', email: 'ada@example.com', action: '/l/abc', csrf: 'csrf-1' },
  'magic-link-done': {},
  'link-invalid': { restartUrl: '/flow/f1/identify' },
  consent: {
    appName: 'Acme Bank',
    action: '/flow/f1/consent',
    csrf: 'csrf-1',
    email: 'ada@example.com',
    scopes: ['email', 'phone', 'svc_network_info'],
    customMessage: 'Please confirm your transfer.',
    psd2: { payee: 'ACME Utilities', paymentAmount: '€ 120.00', paymentMethod: 'Visa •••• 4242' },
    approval: {
      mainAttribute: { label: 'Contract', value: 'Premium plan' },
      attributes: [
        { label: 'Start', value: '1 March', icon: 'Calendar' },
        { label: 'Price', value: '€ 9 a month' },
      ],
    },
  },
  error: { title: 'error.linkExpired.title', message: 'error.linkExpired.message', restartUrl: '/authorize' },
  done: { title: 'done.title', message: 'done.text' },
  welcome: {
    consoleUrl: 'http://localhost:8080/console/',
    discoveryUrl: '/.well-known/openid-configuration',
    outboxUrl: '/dev/mail',
  },
  phone: {
    appName: 'Acme Bank',
    action: '/flow/f1/phone',
    csrf: 'csrf-1',
    phone: '+41 79 123 45 67',
    error: 'invalidPhone',
  },
  'phone-code': {
    phone: '+41791234567',
    verifyAction: '/flow/f1/phone-code',
    resendAction: '/flow/f1/phone-code/resend',
    changePhoneUrl: '/flow/f1/phone',
    csrf: 'csrf-1',
    error: 'wrongCode',
    attemptsLeft: 2,
  },
  'mobile-qr': {
    appName: 'Acme Shop',
    qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path d="M0 0h1v1H0z"/></svg>',
    linkPath: '/m/abc',
    csrf: 'csrf-1',
    emailInsteadAction: '/flow/f1/mobile/email-instead',
    cancelAction: '/enroll/flow/f1/cancel',
    newCodeAction: '/flow/f1/mobile/new-code',
    openBy: 1_899_999_000_000,
    linkText: 'https://auth.example/m/abc',
    seconds: 30,
    statusUrl: '/flow/f1/mobile/status',
    continueUrl: '/flow/f1/mobile/next',
    expiresAt: 1_900_000_000_000,
    auxLink: { href: 'https://help.acme.example/phone/', title: 'Other ways to sign in' },
    matchCode: '47',
  },
  'qr-expired': {
    appName: 'Acme Shop',
    seconds: 30,
    csrf: 'csrf-1',
    newCodeAction: '/flow/f1/mobile/new-code',
    emailInsteadAction: '/flow/f1/mobile/email-instead',
    cancelAction: '/flow/f1/mobile/cancel',
    backAction: '/flow/f1/mobile/back',
  },
  'mobile-done': {},
  'ciba-start': {
    appName: 'Acme Bank',
    bindingMessage: 'Transfer 4F2K',
    action: '/ciba/abc',
    csrf: 'csrf-1',
  },
  'register-start': {
    appName: 'Acme Bank',
    email: 'ada@example.com',
    customMessage: 'Welcome to Acme Bank.',
    action: '/register/abc',
    csrf: 'csrf-1',
  },
  'register-passkey': {
    appName: 'Acme Bank',
    email: 'ada@example.com',
    customMessage: 'Welcome to Acme Bank.',
    csrf: 'csrf-1',
    optionsUrl: '/registration/r1/passkey/create-options',
    verifyUrl: '/registration/r1/passkey/create',
    notNowAction: '/registration/r1/not-now',
    mobileAction: '/registration/r1/mobile',
  },
  'register-complete': {
    appName: 'Acme Bank',
    completionText: 'All set. Your card is on its way.',
    link: { url: 'https://bank.example/cb', label: 'Open your account' },
    backUrl: 'https://bank.example/registered',
    secondaryMessage: 'You can go back to your computer.',
  },
  'register-invalid': {},
  'logout-confirm': { appName: 'Acme Shop', csrf: 'csrf-1', action: '/logout/confirm' },
  'number-match': {
    purpose: 'link',
    appName: 'Acme Shop',
    email: 'ada@example.com',
    action: '/link/abc',
    csrf: 'csrf-1',
    choices: ['85', '47', '12'],
    other: {
      browser: 'Chrome 140',
      os: 'macOS 10.15',
      city: 'Zurich',
      country: 'CH',
      startedAt: 1_900_000_000_000,
    },
  },
};

export const hostile = `<script>alert("x")</script>'&`;

/** The same views with every text replaced by markup and every path given markup and quotes. */
export function hostileViews(): { [P in PageName]: PageViews[P] } {
  const poison = (value: unknown, key: string): unknown => {
    if (typeof value === 'string') {
      if (value.startsWith('/')) return `${value}/"><script>x</script>`;
      // Catalog keys and enums choose among fixed texts; they are not printed.
      if (['title', 'message', 'error', 'icon'].includes(key) || key === 'scope') return value;
      return hostile;
    }
    if (Array.isArray(value)) return value.map((item) => poison(item, key === 'scopes' ? 'scope' : key));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, k)]));
    }
    return value;
  };
  return poison(fullViews, '') as { [P in PageName]: PageViews[P] };
}

const entities: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
  '&#x60;': '`',
  '&#x3D;': '=',
};

export function decode(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#x27|#39|#x60|#x3D);/g, (e) => entities[e] ?? e);
}

export type Attributes = Record<string, string>;

/** Every start tag of that element, with its attributes (decoded). */
export function tags(html: string, name: string): Attributes[] {
  return [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries(
      [...(m[1] ?? '').matchAll(/([\w:-]+)(?:="([^"]*)")?/g)].map((a) => [a[1], decode(a[2] ?? '')]),
    ),
  );
}

/** Text content of each element of that kind (inner tags dropped, entities decoded, spaces collapsed). */
export function texts(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`<${name}\\b[^>]*>([\\s\\S]*?)</${name}>`, 'g'))].map((m) =>
    decode((m[1] ?? '').replace(/<[^>]*>/g, ''))
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

/** The input a visible <label for> with exactly this text points at. */
export function inputByLabel(html: string, label: string): Attributes {
  const match = [...html.matchAll(/<label for="([^"]+)">([\s\S]*?)<\/label>/g)].find(
    (m) => decode(m[2] ?? '').trim() === label,
  );
  if (!match) throw new Error(`no label "${label}"`);
  const input = tags(html, 'input').find((attrs) => attrs.id === match[1]);
  if (!input) throw new Error(`label "${label}" points at no input #${match[1]}`);
  return input;
}

/** The <form> start tags, each with the submit buttons' texts and hidden inputs inside it. */
export function forms(html: string): { attrs: Attributes; buttons: string[]; hidden: Attributes[] }[] {
  return [...html.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/g)].map((m) => ({
    attrs: tags(m[0], 'form')[0] ?? {},
    buttons: texts(m[0], 'button'),
    hidden: tags(m[0], 'input').filter((input) => input.type === 'hidden'),
  }));
}

/** Text of the whole document body without tags: what a reader sees. */
export function visibleText(html: string): string {
  const body = html.slice(html.indexOf('<body'));
  return decode(body.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}
