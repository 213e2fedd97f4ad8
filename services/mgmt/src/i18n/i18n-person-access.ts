/**
 * The console catalogs' keys of a person's sessions and account status (issue 38): Sign out everywhere,
 * Disable account / Enable account, and what each breaks on its confirmation step. English, German and
 * French side by side; merged into the console's catalogs by i18n/index.ts.
 */
type Catalog = Record<string, string>;

export const personAccessEn: Catalog = {
  'can.user.signOutEverywhere': 'sign people out everywhere',
  'can.user.disable': 'disable and enable people',
  'user.sessions': 'Sessions',
  'user.noSessions': 'Not signed in anywhere.',
  'col.place': 'Approximate place',
  'col.started': 'Started',
  'col.applications': 'Applications',
  'session.unknownDevice': 'Unknown device',
  'user.signOutEverywhere': 'Sign out everywhere',
  'user.signedOut': 'Signed out everywhere: {sessions} sessions ended; their refresh tokens no longer work.',
  'user.status': 'Status',
  'user.enabled': 'Enabled: may sign in.',
  'user.disabledSince': 'Disabled since {when}: cannot sign in to any application of this tenant.',
  'user.disable': 'Disable account',
  'user.enable': 'Enable account',
  'user.disabledNotice': 'Account disabled: sign-ins are refused and the person’s sessions and tokens ended.',
  'user.enabledNotice': 'Account enabled: the person may sign in again.',
  'danger.signOutEverywhere':
    'Sign out everywhere: every Sesame session of this person ends, their applications are told to sign them out, and their refresh tokens stop working at once. They can sign in again.',
  'danger.disableAccount':
    'Disable account: this person cannot sign in to any application of this tenant until you enable the account again; their sessions and tokens end at once. Nothing is deleted.',
};

export const personAccessDe: Catalog = {
  'can.user.signOutEverywhere': 'Personen überall abmelden',
  'can.user.disable': 'Personen deaktivieren und aktivieren',
  'user.sessions': 'Sitzungen',
  'user.noSessions': 'Nirgends angemeldet.',
  'col.place': 'Ungefährer Ort',
  'col.started': 'Begonnen',
  'col.applications': 'Anwendungen',
  'session.unknownDevice': 'Unbekanntes Gerät',
  'user.signOutEverywhere': 'Überall abmelden',
  'user.signedOut':
    'Überall abgemeldet: {sessions} Sitzungen beendet; ihre Aktualisierungstoken funktionieren nicht mehr.',
  'user.status': 'Status',
  'user.enabled': 'Aktiviert: darf sich anmelden.',
  'user.disabledSince': 'Deaktiviert seit {when}: kann sich bei keiner Anwendung dieses Mandanten anmelden.',
  'user.disable': 'Konto deaktivieren',
  'user.enable': 'Konto aktivieren',
  'user.disabledNotice':
    'Konto deaktiviert: Anmeldungen werden abgelehnt, Sitzungen und Token der Person sind beendet.',
  'user.enabledNotice': 'Konto aktiviert: Die Person darf sich wieder anmelden.',
  'danger.signOutEverywhere':
    'Überall abmelden: Jede Sesame-Sitzung dieser Person endet, ihre Anwendungen werden zum Abmelden aufgefordert und ihre Aktualisierungstoken funktionieren sofort nicht mehr. Sie kann sich erneut anmelden.',
  'danger.disableAccount':
    'Konto deaktivieren: Diese Person kann sich bei keiner Anwendung dieses Mandanten anmelden, bis Sie das Konto wieder aktivieren; ihre Sitzungen und Token enden sofort. Nichts wird gelöscht.',
};

export const personAccessFr: Catalog = {
  'can.user.signOutEverywhere': 'déconnecter des personnes partout',
  'can.user.disable': 'désactiver et activer des personnes',
  'user.sessions': 'Sessions',
  'user.noSessions': 'Connecté nulle part.',
  'col.place': 'Lieu approximatif',
  'col.started': 'Début',
  'col.applications': 'Applications',
  'session.unknownDevice': 'Appareil inconnu',
  'user.signOutEverywhere': 'Déconnecter partout',
  'user.signedOut':
    'Déconnecté partout : {sessions} sessions terminées ; ses jetons d’actualisation ne fonctionnent plus.',
  'user.status': 'Statut',
  'user.enabled': 'Activé : peut se connecter.',
  'user.disabledSince':
    'Désactivé depuis {when} : ne peut se connecter à aucune application de ce locataire.',
  'user.disable': 'Désactiver le compte',
  'user.enable': 'Activer le compte',
  'user.disabledNotice':
    'Compte désactivé : les connexions sont refusées, les sessions et jetons de la personne ont pris fin.',
  'user.enabledNotice': 'Compte activé : la personne peut de nouveau se connecter.',
  'danger.signOutEverywhere':
    'Déconnecter partout : chaque session Sesame de cette personne prend fin, ses applications sont priées de la déconnecter et ses jetons d’actualisation cessent aussitôt de fonctionner. Elle peut se reconnecter.',
  'danger.disableAccount':
    'Désactiver le compte : cette personne ne peut se connecter à aucune application de ce locataire tant que vous n’avez pas réactivé le compte ; ses sessions et jetons prennent fin aussitôt. Rien n’est supprimé.',
};
