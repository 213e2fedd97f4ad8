import type { MailKind, MailLocale, MailTemplate } from './mail-templates';

/** Sesame's own texts of every mail in every locale: what a tenant that saved no template sends. */
export const DEFAULT_TEMPLATES: Record<MailLocale, Record<MailKind, MailTemplate>> = {
  en: {
    'sign-in-code': {
      subject: 'Your code for {{app}} is {{code}}',
      preheader: 'Your sign-in code: {{code}}',
      heading: 'Your sign-in code',
      body: 'Your code to sign in to {{app}} is {{code}}.\n\nIt expires in {{expiresInMinutes}} minutes. If you did not try to sign in, you can ignore this email.',
      button: '',
    },
    'magic-link': {
      subject: 'Sign in to {{app}}',
      preheader: 'Your sign-in link for {{app}}',
      heading: 'Sign in to {{app}}',
      body: 'Open this link to sign in to {{app}} as {{email}}.\n\nThe link works once and expires in {{expiresInMinutes}} minutes. If you did not try to sign in, you can ignore this email.',
      button: 'Sign in to {{app}}',
    },
    'registration-link': {
      subject: 'Create your account for {{app}}',
      preheader: '{{app}} invites you to create an account',
      heading: 'Create your account',
      body: '{{app}} invites you to create an account for {{email}}.\n\nThe link works once and expires in {{expiresInMinutes}} minutes. If you did not expect this invitation, you can ignore this email.',
      button: 'Create your account',
    },
    'admin-invitation': {
      subject: 'You are invited to administer {{tenant}} in Sesame',
      preheader: 'An invitation to administer {{tenant}}',
      heading: 'You are invited to administer {{tenant}}',
      body: 'You are invited as {{role}} of the tenant {{tenant}}.\n\nOpen the link and sign in with {{email}} to accept (valid for {{expiresInHours}} hours, once).',
      button: 'Accept the invitation',
    },
  },
  de: {
    'sign-in-code': {
      subject: 'Ihr Code für {{app}} lautet {{code}}',
      preheader: 'Ihr Anmeldecode: {{code}}',
      heading: 'Ihr Anmeldecode',
      body: 'Ihr Code für die Anmeldung bei {{app}} lautet {{code}}.\n\nEr läuft in {{expiresInMinutes}} Minuten ab. Wenn Sie sich nicht anmelden wollten, können Sie diese E-Mail ignorieren.',
      button: '',
    },
    'magic-link': {
      subject: 'Bei {{app}} anmelden',
      preheader: 'Ihr Anmeldelink für {{app}}',
      heading: 'Bei {{app}} anmelden',
      body: 'Öffnen Sie diesen Link, um sich bei {{app}} als {{email}} anzumelden.\n\nDer Link funktioniert einmal und läuft in {{expiresInMinutes}} Minuten ab. Wenn Sie sich nicht anmelden wollten, können Sie diese E-Mail ignorieren.',
      button: 'Bei {{app}} anmelden',
    },
    'registration-link': {
      subject: 'Erstellen Sie Ihr Konto für {{app}}',
      preheader: '{{app}} lädt Sie ein, ein Konto zu erstellen',
      heading: 'Erstellen Sie Ihr Konto',
      body: '{{app}} lädt Sie ein, ein Konto für {{email}} zu erstellen.\n\nDer Link funktioniert einmal und läuft in {{expiresInMinutes}} Minuten ab. Wenn Sie keine Einladung erwartet haben, können Sie diese E-Mail ignorieren.',
      button: 'Konto erstellen',
    },
    'admin-invitation': {
      subject: 'Einladung zur Verwaltung von {{tenant}} in Sesame',
      preheader: 'Eine Einladung zur Verwaltung von {{tenant}}',
      heading: 'Sie sind eingeladen, {{tenant}} zu verwalten',
      body: 'Sie sind als {{role}} des Mandanten {{tenant}} eingeladen.\n\nÖffnen Sie den Link und melden Sie sich mit {{email}} an, um die Einladung anzunehmen (gültig für {{expiresInHours}} Stunden, einmal).',
      button: 'Einladung annehmen',
    },
  },
  fr: {
    'sign-in-code': {
      subject: 'Votre code pour {{app}} est {{code}}',
      preheader: 'Votre code de connexion : {{code}}',
      heading: 'Votre code de connexion',
      body: 'Votre code pour vous connecter à {{app}} est {{code}}.\n\nIl expire dans {{expiresInMinutes}} minutes. Si vous n’avez pas essayé de vous connecter, vous pouvez ignorer cet e-mail.',
      button: '',
    },
    'magic-link': {
      subject: 'Connexion à {{app}}',
      preheader: 'Votre lien de connexion pour {{app}}',
      heading: 'Connexion à {{app}}',
      body: 'Ouvrez ce lien pour vous connecter à {{app}} en tant que {{email}}.\n\nLe lien fonctionne une fois et expire dans {{expiresInMinutes}} minutes. Si vous n’avez pas essayé de vous connecter, vous pouvez ignorer cet e-mail.',
      button: 'Se connecter à {{app}}',
    },
    'registration-link': {
      subject: 'Créez votre compte pour {{app}}',
      preheader: '{{app}} vous invite à créer un compte',
      heading: 'Créez votre compte',
      body: '{{app}} vous invite à créer un compte pour {{email}}.\n\nLe lien fonctionne une fois et expire dans {{expiresInMinutes}} minutes. Si vous n’attendiez pas cette invitation, vous pouvez ignorer cet e-mail.',
      button: 'Créer votre compte',
    },
    'admin-invitation': {
      subject: 'Invitation à administrer {{tenant}} dans Sesame',
      preheader: 'Une invitation à administrer {{tenant}}',
      heading: 'Vous êtes invité à administrer {{tenant}}',
      body: 'Vous êtes invité en tant que {{role}} du locataire {{tenant}}.\n\nOuvrez le lien et connectez-vous avec {{email}} pour accepter (valable {{expiresInHours}} heures, une fois).',
      button: 'Accepter l’invitation',
    },
  },
};
