// Sign-in attempts by typed address (issue 38): the Activity filter, the Users search's no-account result and
// its erase action.
type Catalog = Record<string, string>;

export const attemptsEn: Catalog = {
  'activity.email': 'Email address',
  'can.attempts.erase': 'erase sign-in attempts',
  'event.administrator_erase_attempts': 'Administrator erased the sign-in attempts of an address',
  'attempts.noAccount': 'No account — {count} sign-in attempts',
  'attempts.noAccountOne': 'No account — 1 sign-in attempt',
  'attempts.typedOnly': 'Addresses typed in sign-ins, without an account',
  'attempts.erase': 'Erase attempts for this address',
  'attempts.eraseHint':
    'Deletes the records of every sign-in this address was typed in. This cannot be undone.',
  'attempts.erased': 'Erased {count} sign-in records of {email}.',
  'action.addressTyped': 'Typed an email address; the code page was shown.',
};

export const attemptsDe: Catalog = {
  'activity.email': 'E-Mail-Adresse',
  'can.attempts.erase': 'Anmeldeversuche löschen',
  'event.administrator_erase_attempts': 'Administrator hat die Anmeldeversuche einer Adresse gelöscht',
  'attempts.noAccount': 'Kein Konto — {count} Anmeldeversuche',
  'attempts.noAccountOne': 'Kein Konto — 1 Anmeldeversuch',
  'attempts.typedOnly': 'Bei Anmeldungen eingegebene Adressen ohne Konto',
  'attempts.erase': 'Versuche für diese Adresse löschen',
  'attempts.eraseHint':
    'Löscht die Aufzeichnungen aller Anmeldungen, in denen diese Adresse eingegeben wurde. Das kann nicht rückgängig gemacht werden.',
  'attempts.erased': '{count} Anmeldeaufzeichnungen von {email} gelöscht.',
  'action.addressTyped': 'Eine E-Mail-Adresse eingegeben; die Code-Seite wurde angezeigt.',
};

export const attemptsFr: Catalog = {
  'activity.email': 'Adresse e-mail',
  'can.attempts.erase': 'effacer des tentatives de connexion',
  'event.administrator_erase_attempts':
    'Un administrateur a effacé les tentatives de connexion d’une adresse',
  'attempts.noAccount': 'Aucun compte — {count} tentatives de connexion',
  'attempts.noAccountOne': 'Aucun compte — 1 tentative de connexion',
  'attempts.typedOnly': 'Adresses saisies lors de connexions, sans compte',
  'attempts.erase': 'Effacer les tentatives de cette adresse',
  'attempts.eraseHint':
    'Supprime les enregistrements de toutes les connexions où cette adresse a été saisie. C’est irréversible.',
  'attempts.erased': '{count} enregistrements de connexion de {email} effacés.',
  'action.addressTyped': 'A saisi une adresse e-mail ; la page du code a été affichée.',
};
