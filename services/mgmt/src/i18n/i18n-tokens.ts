/**
 * The console catalogs' keys of an Owner's view of every administrator's personal API tokens (issue 35),
 * English, German and French side by side; merged into the console's catalogs by i18n.ts.
 */
type Catalog = Record<string, string>;

export const tokensEn: Catalog = {
  'tokens.allTitle': 'Every administrator’s tokens',
  'tokens.allLead':
    'As an Owner you see the personal API tokens of every administrator of this tenant and can revoke any of them.',
  'tokens.administrator': 'Administrator',
  'tokens.revokeOf': 'Revoke {name} of {email}',
  'tokens.noneAll': 'No administrator of this tenant has a personal API token.',
};

export const tokensDe: Catalog = {
  'tokens.allTitle': 'Tokens aller Administratoren',
  'tokens.allLead':
    'Als Inhaber sehen Sie die persönlichen API-Tokens aller Administratoren dieses Mandanten und können jedes davon widerrufen.',
  'tokens.administrator': 'Administrator',
  'tokens.revokeOf': '{name} von {email} widerrufen',
  'tokens.noneAll': 'Kein Administrator dieses Mandanten hat ein persönliches API-Token.',
};

export const tokensFr: Catalog = {
  'tokens.allTitle': 'Jetons de tous les administrateurs',
  'tokens.allLead':
    'En tant que propriétaire, vous voyez les jetons d’API personnels de tous les administrateurs de ce locataire et pouvez révoquer n’importe lequel.',
  'tokens.administrator': 'Administrateur',
  'tokens.revokeOf': 'Révoquer {name} de {email}',
  'tokens.noneAll': 'Aucun administrateur de ce locataire n’a de jeton d’API personnel.',
};
