/**
 * The console catalogs' keys of the Danger zone (issue 37): what each destructive action breaks, said on its
 * confirmation step. English, German and French side by side; merged into the console's catalogs by i18n.ts.
 */
type Catalog = Record<string, string>;

export const dangerEn: Catalog = {
  'danger.zone': 'Danger zone',
  'danger.title': 'Confirm: {action}',
  'danger.lead': 'Nothing has changed yet. Read what will break, then confirm or cancel.',
  'danger.target': 'Applies to: {target}',
  'danger.cancel': 'Cancel',
  'danger.rotateSecret':
    'Rotate client secret: the current secret stops working at once; apps using it fail to get tokens until you update them with the new one.',
  'danger.clientType':
    'Change client type: a confidential application gets a new secret and a public one has none; apps signing in with the old setting fail until you update them.',
  'danger.removeApplication':
    'Remove application: sign-in through this application stops at once; its secret, settings and its people’s membership of it are gone for good.',
  'danger.revokeCredentials':
    'Revoke API credentials: the credentials stop working at once, with every token made with them; integrations using them fail.',
  'danger.removeAdministrator':
    'Remove administrator: this person loses access to the console and the admin API of this tenant at once, and their personal API tokens stop working.',
  'danger.revokeToken':
    'Revoke token: the token stops working at once; scripts and CLI sessions using it fail.',
  'danger.resetBranding':
    'Reset branding: your logo, colours, links, sender name and mail texts are replaced by the defaults at once; people see Sesame’s default pages and mails.',
  'danger.blockDevice':
    'Block device: this device can no longer be used to sign in, and its passkeys are refused until you unblock it.',
  'danger.removePerson':
    'Remove person: their sign-ins and refresh tokens end at once and their membership is deleted; they must register again to come back.',
};

export const dangerDe: Catalog = {
  'danger.zone': 'Gefahrenbereich',
  'danger.title': 'Bestätigen: {action}',
  'danger.lead':
    'Noch hat sich nichts geändert. Lesen Sie, was nicht mehr funktionieren wird, und bestätigen oder brechen Sie ab.',
  'danger.target': 'Betrifft: {target}',
  'danger.cancel': 'Abbrechen',
  'danger.rotateSecret':
    'Client-Geheimnis erneuern: Das aktuelle Geheimnis funktioniert sofort nicht mehr; Apps, die es verwenden, erhalten keine Tokens, bis Sie sie aktualisieren.',
  'danger.clientType':
    'Client-Typ ändern: Eine vertrauliche Anwendung erhält ein neues Geheimnis, eine öffentliche keines; Apps mit der alten Einstellung scheitern, bis Sie sie aktualisieren.',
  'danger.removeApplication':
    'Anwendung entfernen: Die Anmeldung über diese Anwendung endet sofort; Geheimnis, Einstellungen und die Mitgliedschaften ihrer Personen sind endgültig weg.',
  'danger.revokeCredentials':
    'API-Zugangsdaten widerrufen: Die Zugangsdaten funktionieren sofort nicht mehr, ebenso alle damit erstellten Tokens; Integrationen, die sie verwenden, scheitern.',
  'danger.removeAdministrator':
    'Administrator entfernen: Diese Person verliert sofort den Zugang zur Konsole und zur Admin-API dieses Mandanten, und ihre persönlichen API-Tokens funktionieren nicht mehr.',
  'danger.revokeToken':
    'Token widerrufen: Das Token funktioniert sofort nicht mehr; Skripte und CLI-Sitzungen, die es verwenden, scheitern.',
  'danger.resetBranding':
    'Branding zurücksetzen: Logo, Farben, Links, Absendername und E-Mail-Texte werden sofort durch die Standardwerte ersetzt; Personen sehen die Standardseiten und -E-Mails von Sesame.',
  'danger.blockDevice':
    'Gerät sperren: Mit diesem Gerät kann man sich nicht mehr anmelden, und seine Passkeys werden abgelehnt, bis Sie es entsperren.',
  'danger.removePerson':
    'Person entfernen: Ihre Anmeldungen und Refresh-Tokens enden sofort und ihre Mitgliedschaft wird gelöscht; sie muss sich neu registrieren, um zurückzukommen.',
};

export const dangerFr: Catalog = {
  'danger.zone': 'Zone de danger',
  'danger.title': 'Confirmer : {action}',
  'danger.lead': 'Rien n’a encore changé. Lisez ce qui cessera de fonctionner, puis confirmez ou annulez.',
  'danger.target': 'Concerne : {target}',
  'danger.cancel': 'Annuler',
  'danger.rotateSecret':
    'Renouveler le secret client : le secret actuel cesse de fonctionner immédiatement ; les applications qui l’utilisent n’obtiennent plus de jetons tant que vous ne les avez pas mises à jour.',
  'danger.clientType':
    'Changer le type de client : une application confidentielle reçoit un nouveau secret et une application publique n’en a aucun ; les applications configurées avec l’ancien réglage échouent tant que vous ne les avez pas mises à jour.',
  'danger.removeApplication':
    'Supprimer l’application : la connexion via cette application cesse immédiatement ; son secret, ses réglages et l’appartenance de ses personnes disparaissent définitivement.',
  'danger.revokeCredentials':
    'Révoquer les identifiants d’API : les identifiants cessent de fonctionner immédiatement, ainsi que tous les jetons créés avec eux ; les intégrations qui les utilisent échouent.',
  'danger.removeAdministrator':
    'Retirer l’administrateur : cette personne perd immédiatement l’accès à la console et à l’API d’administration de ce locataire, et ses jetons d’API personnels cessent de fonctionner.',
  'danger.revokeToken':
    'Révoquer le jeton : le jeton cesse de fonctionner immédiatement ; les scripts et sessions CLI qui l’utilisent échouent.',
  'danger.resetBranding':
    'Réinitialiser l’habillage : votre logo, vos couleurs, liens, nom d’expéditeur et textes d’e-mail sont remplacés immédiatement par les valeurs par défaut ; les personnes voient les pages et e-mails par défaut de Sesame.',
  'danger.blockDevice':
    'Bloquer l’appareil : cet appareil ne peut plus servir à se connecter et ses passkeys sont refusées jusqu’à ce que vous le débloquiez.',
  'danger.removePerson':
    'Retirer la personne : ses connexions et jetons de rafraîchissement prennent fin immédiatement et son appartenance est supprimée ; elle doit se réinscrire pour revenir.',
};
