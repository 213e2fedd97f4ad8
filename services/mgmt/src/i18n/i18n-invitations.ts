/**
 * The console catalogs' keys of invitations under control (issue 35): the invitation page, cancelling on the
 * Administrators page and the mail limit; English, German and French side by side, merged by i18n.ts.
 */
type Catalog = Record<string, string>;

export const invitationsEn: Catalog = {
  'invitation.title': 'Invitation to administer {tenant}',
  'invitation.lead': '{inviter} invites you ({email}) to administer {tenant} in Sesame.',
  'invitation.invitedBy': 'Invited by',
  'invitation.tenant': 'Tenant',
  'invitation.role': 'Role',
  'invitation.expires': 'Valid until',
  'invitation.accept': 'Accept invitation',
  'invitation.byBootstrap': 'the operator of this Sesame installation',
  'invite.cancelled': 'This invitation was cancelled. Ask an Owner of the tenant for a new one.',
  'admins.invitedBy': 'Invited by {inviter}, valid until {expires}',
  'admins.cancelInvitation': 'Cancel invitation',
  'admins.cancelled': 'The invitation to {email} is cancelled: its link no longer works.',
  'admins.tooManyMails':
    'At most {limit} invitation mails may go to one address per day. Try again in {hours} hours.',
};

export const invitationsDe: Catalog = {
  'invitation.title': 'Einladung zur Verwaltung von {tenant}',
  'invitation.lead': '{inviter} lädt Sie ({email}) ein, {tenant} in Sesame zu verwalten.',
  'invitation.invitedBy': 'Eingeladen von',
  'invitation.tenant': 'Mandant',
  'invitation.role': 'Rolle',
  'invitation.expires': 'Gültig bis',
  'invitation.accept': 'Einladung annehmen',
  'invitation.byBootstrap': 'der Betreiber dieser Sesame-Installation',
  'invite.cancelled':
    'Diese Einladung wurde zurückgezogen. Bitten Sie einen Inhaber des Mandanten um eine neue.',
  'admins.invitedBy': 'Eingeladen von {inviter}, gültig bis {expires}',
  'admins.cancelInvitation': 'Einladung zurückziehen',
  'admins.cancelled': 'Die Einladung an {email} ist zurückgezogen: Ihr Link funktioniert nicht mehr.',
  'admins.tooManyMails':
    'An eine Adresse gehen höchstens {limit} Einladungs-E-Mails pro Tag. Versuchen Sie es in {hours} Stunden erneut.',
};

export const invitationsFr: Catalog = {
  'invitation.title': 'Invitation à administrer {tenant}',
  'invitation.lead': '{inviter} vous invite ({email}) à administrer {tenant} dans Sesame.',
  'invitation.invitedBy': 'Invité par',
  'invitation.tenant': 'Locataire',
  'invitation.role': 'Rôle',
  'invitation.expires': 'Valable jusqu’au',
  'invitation.accept': 'Accepter l’invitation',
  'invitation.byBootstrap': 'l’exploitant de cette installation Sesame',
  'invite.cancelled':
    'Cette invitation a été annulée. Demandez-en une nouvelle à un propriétaire du locataire.',
  'admins.invitedBy': 'Invité par {inviter}, valable jusqu’au {expires}',
  'admins.cancelInvitation': 'Annuler l’invitation',
  'admins.cancelled': 'L’invitation envoyée à {email} est annulée : son lien ne fonctionne plus.',
  'admins.tooManyMails':
    'Une même adresse reçoit au plus {limit} e-mails d’invitation par jour. Réessayez dans {hours} heures.',
};
