/**
 * The console catalogs' keys of the list of people, Add a person, and a person's passkeys and phone number
 * (issue 38). English, German and French side by side; merged into the console's catalogs by i18n/index.ts.
 * English accessible names are fixed (tests drive the pages by them).
 */
type Catalog = Record<string, string>;

export const peopleEn: Catalog = {
  'can.passkey.remove': 'remove a person’s passkeys',
  'can.phone.remove': 'remove a person’s phone number',
  'can.person.add': 'add people',
  'event.administrator_remove_user_passkey': 'Administrator removed a passkey of a person',
  'event.administrator_remove_user_phone_number': 'Administrator removed the phone number of a person',
  'event.administrator_add_person': 'Administrator sent a registration link to an address',
  'match.email_prefix': 'start of the address',
  'people.title': 'People',
  'people.none': 'Nobody has an account in this tenant yet.',
  'people.created': 'Created',
  'people.lastSignIn': 'Last sign-in',
  'people.active': 'Active',
  'people.disabled': 'Disabled',
  'people.never': 'Never',
  'people.next': 'Next page',
  'people.first': 'Newest people',
  'people.pages': 'Pages of people',
  'people.found': 'People found',
  'people.add': 'Add a person',
  'people.addLead':
    'Sesame sends a registration link to the address; the person follows it, makes a passkey and is taken to the application.',
  'people.email': 'Email address',
  'people.app': 'Application',
  'people.chooseApp': 'Choose an application',
  'people.send': 'Send registration link',
  'people.sent': 'Registration link sent to {email}.',
  'people.notSent':
    'The registration mail to {email} could not be sent, so its link was revoked: try again later.',
  'user.passkeys': 'Passkeys',
  'user.noPasskeys': 'No passkeys.',
  'passkey.generic': 'Passkey',
  'passkey.remove': 'Remove passkey',
  'passkey.removed':
    'Passkey removed. It no longer signs the person in; they can sign in by email and make a new one.',
  'col.lastUsed': 'Last used',
  'user.phone': 'Phone number',
  'user.noPhone': 'No phone number.',
  'phone.remove': 'Remove phone number',
  'phone.removed': 'Phone number removed.',
  'danger.removePasskey':
    'Remove passkey: the person can no longer sign in with this passkey. They can sign in by email and make a new one.',
  'danger.removePhone':
    'Remove phone number: Sesame forgets this person’s phone number; codes are no longer sent to it. An application that asks for phone verification has them type a number and confirm it by SMS again. Passkeys, sessions and applications stay.',
};

export const peopleDe: Catalog = {
  'can.passkey.remove': 'Passkeys von Personen entfernen',
  'can.phone.remove': 'die Telefonnummer einer Person entfernen',
  'can.person.add': 'Personen hinzufügen',
  'event.administrator_remove_user_passkey': 'Administrator hat einen Passkey einer Person entfernt',
  'event.administrator_remove_user_phone_number': 'Administrator hat die Telefonnummer einer Person entfernt',
  'event.administrator_add_person': 'Administrator hat einen Registrierungslink an eine Adresse gesendet',
  'match.email_prefix': 'Anfang der Adresse',
  'people.title': 'Personen',
  'people.none': 'In diesem Mandanten hat noch niemand ein Konto.',
  'people.created': 'Erstellt',
  'people.lastSignIn': 'Letzte Anmeldung',
  'people.active': 'Aktiv',
  'people.disabled': 'Deaktiviert',
  'people.never': 'Nie',
  'people.next': 'Nächste Seite',
  'people.first': 'Neueste Personen',
  'people.pages': 'Seiten der Personen',
  'people.found': 'Gefundene Personen',
  'people.add': 'Person hinzufügen',
  'people.addLead':
    'Sesame sendet einen Registrierungslink an die Adresse; die Person folgt ihm, erstellt einen Passkey und gelangt zur Anwendung.',
  'people.email': 'E-Mail-Adresse',
  'people.app': 'Anwendung',
  'people.chooseApp': 'Anwendung wählen',
  'people.send': 'Registrierungslink senden',
  'people.sent': 'Registrierungslink an {email} gesendet.',
  'people.notSent':
    'Die Registrierungs-E-Mail an {email} konnte nicht gesendet werden, daher wurde ihr Link widerrufen: Versuchen Sie es später erneut.',
  'user.passkeys': 'Passkeys',
  'user.noPasskeys': 'Keine Passkeys.',
  'passkey.generic': 'Passkey',
  'passkey.remove': 'Passkey entfernen',
  'passkey.removed':
    'Passkey entfernt. Die Person kann sich damit nicht mehr anmelden; sie kann sich per E-Mail anmelden und einen neuen erstellen.',
  'col.lastUsed': 'Zuletzt verwendet',
  'user.phone': 'Telefonnummer',
  'user.noPhone': 'Keine Telefonnummer.',
  'phone.remove': 'Telefonnummer entfernen',
  'phone.removed': 'Telefonnummer entfernt.',
  'danger.removePasskey':
    'Passkey entfernen: Die Person kann sich mit diesem Passkey nicht mehr anmelden. Sie kann sich per E-Mail anmelden und einen neuen erstellen.',
  'danger.removePhone':
    'Telefonnummer entfernen: Sesame vergisst die Telefonnummer dieser Person; Codes werden nicht mehr an sie gesendet. Eine Anwendung, die eine Telefonbestätigung verlangt, lässt sie eine Nummer eingeben und per SMS bestätigen. Passkeys, Sitzungen und Anwendungen bleiben.',
};

export const peopleFr: Catalog = {
  'can.passkey.remove': 'supprimer les clés d’accès d’une personne',
  'can.phone.remove': 'supprimer le numéro de téléphone d’une personne',
  'can.person.add': 'ajouter des personnes',
  'event.administrator_remove_user_passkey': 'Un administrateur a supprimé une clé d’accès d’une personne',
  'event.administrator_remove_user_phone_number':
    'Un administrateur a supprimé le numéro de téléphone d’une personne',
  'event.administrator_add_person': 'Un administrateur a envoyé un lien d’inscription à une adresse',
  'match.email_prefix': 'début de l’adresse',
  'people.title': 'Personnes',
  'people.none': 'Personne n’a encore de compte dans ce locataire.',
  'people.created': 'Création',
  'people.lastSignIn': 'Dernière connexion',
  'people.active': 'Actif',
  'people.disabled': 'Désactivé',
  'people.never': 'Jamais',
  'people.next': 'Page suivante',
  'people.first': 'Personnes les plus récentes',
  'people.pages': 'Pages de personnes',
  'people.found': 'Personnes trouvées',
  'people.add': 'Ajouter une personne',
  'people.addLead':
    'Sesame envoie un lien d’inscription à l’adresse ; la personne le suit, crée une clé d’accès et arrive dans l’application.',
  'people.email': 'Adresse e-mail',
  'people.app': 'Application',
  'people.chooseApp': 'Choisir une application',
  'people.send': 'Envoyer le lien d’inscription',
  'people.sent': 'Lien d’inscription envoyé à {email}.',
  'people.notSent':
    'L’e-mail d’inscription à {email} n’a pas pu être envoyé, son lien a donc été révoqué : réessayez plus tard.',
  'user.passkeys': 'Clés d’accès',
  'user.noPasskeys': 'Aucune clé d’accès.',
  'passkey.generic': 'Clé d’accès',
  'passkey.remove': 'Supprimer la clé d’accès',
  'passkey.removed':
    'Clé d’accès supprimée. Elle ne connecte plus la personne ; celle-ci peut se connecter par e-mail et en créer une nouvelle.',
  'col.lastUsed': 'Dernière utilisation',
  'user.phone': 'Numéro de téléphone',
  'user.noPhone': 'Aucun numéro de téléphone.',
  'phone.remove': 'Supprimer le numéro de téléphone',
  'phone.removed': 'Numéro de téléphone supprimé.',
  'danger.removePasskey':
    'Supprimer la clé d’accès : la personne ne peut plus se connecter avec cette clé. Elle peut se connecter par e-mail et en créer une nouvelle.',
  'danger.removePhone':
    'Supprimer le numéro de téléphone : Sesame oublie le numéro de cette personne ; aucun code n’y est plus envoyé. Une application qui demande une vérification par téléphone lui fait saisir un numéro et le confirmer par SMS. Les clés d’accès, sessions et applications restent.',
};
