/**
 * The console catalogs' keys of issue 37's part D: form validation beside the field, the invitation and its
 * welcome, and Branding's colour pickers. English, German and French side by side; merged by i18n.ts.
 */
type Catalog = Record<string, string>;

export const formsEn: Catalog = {
  'invitation.emailLocked': 'The invitation is for this address; sign in with it to accept.',
  'invitation.welcome': 'Welcome, {email}! You are now {role} of {tenant}.',
  'admins.resend': 'Resend',
  'admins.resendInvitation': 'Resend invitation to {email}',
  'admins.resent': 'A new invitation was sent to {email}; the earlier link no longer works.',
  'branding.colourDefault': 'Leave a colour empty to use Sesame’s default.',
  'branding.pickLightAccent': 'Pick the light scheme’s accent',
  'branding.pickLightBackground': 'Pick the light scheme’s background',
  'branding.pickDarkAccent': 'Pick the dark scheme’s accent',
  'branding.pickDarkBackground': 'Pick the dark scheme’s background',
  'forms.alreadyAdmin': 'is already an administrator of this tenant ({email})',
};

export const formsDe: Catalog = {
  'invitation.emailLocked':
    'Die Einladung gilt für diese Adresse; melden Sie sich damit an, um sie anzunehmen.',
  'invitation.welcome': 'Willkommen, {email}! Sie sind jetzt {role} von {tenant}.',
  'admins.resend': 'Erneut senden',
  'admins.resendInvitation': 'Einladung an {email} erneut senden',
  'admins.resent': 'Eine neue Einladung wurde an {email} gesendet; der frühere Link funktioniert nicht mehr.',
  'branding.colourDefault': 'Lassen Sie eine Farbe leer, um den Standard von Sesame zu verwenden.',
  'branding.pickLightAccent': 'Akzent des hellen Modus wählen',
  'branding.pickLightBackground': 'Hintergrund des hellen Modus wählen',
  'branding.pickDarkAccent': 'Akzent des dunklen Modus wählen',
  'branding.pickDarkBackground': 'Hintergrund des dunklen Modus wählen',
  'forms.alreadyAdmin': 'ist bereits Administrator dieses Mandanten ({email})',
};

export const formsFr: Catalog = {
  'invitation.emailLocked':
    'L’invitation est destinée à cette adresse ; connectez-vous avec elle pour l’accepter.',
  'invitation.welcome': 'Bienvenue, {email} ! Vous êtes maintenant {role} de {tenant}.',
  'admins.resend': 'Renvoyer',
  'admins.resendInvitation': 'Renvoyer l’invitation à {email}',
  'admins.resent': 'Une nouvelle invitation a été envoyée à {email} ; le lien précédent ne fonctionne plus.',
  'branding.colourDefault': 'Laissez une couleur vide pour utiliser celle de Sesame par défaut.',
  'branding.pickLightAccent': 'Choisir l’accent du thème clair',
  'branding.pickLightBackground': 'Choisir le fond du thème clair',
  'branding.pickDarkAccent': 'Choisir l’accent du thème sombre',
  'branding.pickDarkBackground': 'Choisir le fond du thème sombre',
  'forms.alreadyAdmin': 'est déjà administrateur de ce locataire ({email})',
};
