/**
 * The console catalogs' keys of the Applications pages added by issue 37: the kinds of application, Connect
 * your app, the Advanced settings and field messages. English, German and French side by side; merged into
 * the console's catalogs by i18n.ts. Over 300 lines for that reason: the three languages of one page's keys
 * kept in one file, so a key added to one shows missing from the others in review.
 */
type Catalog = Record<string, string>;

export const appsEn: Catalog = {
  'appBranding.title': 'Branding of {name}',
  'appBranding.lead':
    'What this application’s sign-in pages and mails show instead of the tenant’s branding. An empty field uses the tenant’s.',
  'appBranding.save': 'Save application branding',
  'appBranding.back': 'Back to {name}',
  'kinds.legend': 'Kind of application',
  'kinds.web': 'Web application',
  'kinds.webHint':
    'Runs on a server that keeps a client secret (confidential): code flow with PKCE, client_secret_basic, refresh tokens.',
  'kinds.spa': 'Single-page application',
  'kinds.spaHint':
    'Runs in the browser (public, no secret): code flow with PKCE; refresh tokens rotated on each use, for 1 day at most.',
  'kinds.native': 'Native or mobile application',
  'kinds.nativeHint':
    'An installed app (public, no secret): PKCE in the system browser, back to a custom scheme such as com.example.app:/callback, a claimed https link or http on localhost.',
  'kinds.m2m': 'Machine to machine',
  'kinds.m2mHint':
    'A server calling Sesame’s management API with client_credentials: makes API credentials (no name or redirect URIs needed).',
  'kinds.redirectHint':
    'One per line: https, or http on localhost. Only a Native or mobile application may use a custom scheme such as com.example.app:/callback.',
  'kinds.webLead': 'signs people in on your server with the code flow; keep the client secret on the server.',
  'kinds.spaLead': 'signs people in from the browser with the code flow and PKCE; there is no secret.',
  'kinds.nativeLead': 'signs people in through the system browser with PKCE (RFC 8252); there is no secret.',
  'connect.title': 'Connect your app',
  'connect.issuer': 'Issuer',
  'connect.discoveryUrl': 'Discovery URL',
  'connect.copy': 'Copy',
  'connect.copied': '{what} copied to the clipboard.',
  'connect.copyFailed': 'Could not copy: select the value and copy it with the keyboard.',
  'connect.created': '{name} is created. Connect your app with the values below.',
  'connect.secretHidden':
    'The client secret is shown only once, when it is made; the configurations below say {placeholder} in its place. Lost it? Rotate it in the Danger zone.',
  'connect.snippetsLead':
    'Ready-to-paste configuration with this application’s values (redirect URI {redirect}):',
  'fields.fix': 'Some fields need a change; each is marked below:',
  'fields.required': 'is required',
  'advanced.summary': 'Advanced',
  'advanced.refreshTokens': 'Refresh tokens (offline_access)',
  'advanced.refreshHint':
    'Keeps people signed in to the app: each refresh token is replaced on use, and a reused one ends them all.',
  'advanced.lifetimes': 'Token lifetimes',
  'advanced.refreshAbsolute': 'Refresh token lifetime (seconds)',
  'advanced.refreshAbsoluteHint':
    'From the sign-in, however often used: 60 to 31536000. Empty: 2592000 (30 days).',
  'advanced.refreshIdle': 'Refresh token idle lifetime (seconds)',
  'advanced.refreshIdleHint':
    'Ends when unused this long; at most the lifetime above. Empty: 604800 (7 days).',
  'advanced.links': 'Registration and links',
  'advanced.logout': 'Logout',
  'advanced.sessionRequired': 'Back-channel logout needs the session ID (sid)',
  'advanced.signing': 'Signing',
  'advanced.requestObjectAlg': 'Request object signing algorithm',
  'advanced.requestObjectAlgAny': 'Any: signed, unsigned or encrypted',
  'advanced.requestObjectAlgHint':
    'When set, /authorize and /par take only request objects signed with it by the app’s registered keys (JAR).',
  'advanced.tokens': 'Token binding',
  'advanced.clientAuth': 'Client authentication',
  'advanced.authMethod': 'Client authentication method',
  'advanced.authMethodDefault': 'client_secret_basic (default)',
  'advanced.authMethodNone': 'none (public client: no secret, PKCE)',
  'advanced.authMethodHint':
    'How the app proves itself at /token, /par and the other endpoints: its client secret (HTTP Basic or in the form), a JWT signed with its private key (private_key_jwt) or a TLS client certificate (RFC 8705). A public client has none: change its client type in the Danger zone first.',
  'advanced.jwks': 'Public keys (JWK Set)',
  'advanced.jwksHint':
    'The app’s public keys as JSON, {"keys": [ … ]}: for private_key_jwt, self_signed_tls_client_auth and signed request objects. Public keys only (no d). Empty: none.',
  'advanced.jwksNotJson': 'is not valid JSON: paste a JWK Set such as {"keys": [ … ]}',
  'advanced.jwksUri': 'JWK Set URL',
  'advanced.jwksUriHint':
    'Where the app publishes its public keys instead (https), fetched when needed. Give the JWK Set or its URL, not both.',
  'advanced.requireDpop': 'Require DPoP',
  'advanced.requireDpopHint':
    'Tokens only for requests with a DPoP proof (RFC 9449): the app’s access tokens are bound to its key.',
  'advanced.requirePar': 'Require pushed authorization requests',
  'advanced.requireParHint':
    '/authorize takes this app’s requests only as a request_uri from /par (RFC 9126). The FAPI 2.0 profile requires it anyway.',
  'advanced.idTokenAlg': 'ID token signing algorithm',
  'advanced.idTokenAlgDefault': 'RS256 (default)',
  'advanced.idTokenAlgHint':
    'The app’s ID tokens and back-channel logout tokens are signed with this algorithm’s key from /jwks; the app must accept it.',
  'advanced.profile': 'Security profile',
  'advanced.fapi2': 'FAPI 2.0 profile',
  'advanced.fapi2Hint':
    'Enforces the FAPI 2.0 Security Profile: PAR, PKCE S256, DPoP or certificate-bound tokens, private_key_jwt or mutual TLS, codes good 60 seconds, refresh tokens not rotated.',
  'advanced.subjectDn': 'Client certificate subject DN',
  'advanced.subjectDnHint':
    'For tls_client_auth: the subject of the app’s certificate, e.g. CN=rp,O=Bank,C=DE. Empty for other methods.',
  'advanced.certBound': 'Certificate-bound access tokens',
  'advanced.certBoundHint':
    'Access tokens are bound to the TLS client certificate presented at /token (RFC 8705).',
  'advanced.ciba': 'CIBA (sign-in on another device)',
  'advanced.cibaExpiresIn': 'CIBA request lifetime (seconds)',
  'advanced.cibaExpiresHint': '60 to 86400. Empty: 1800 (30 minutes).',
  'advanced.branding': 'Branding',
  'advanced.brandingLink': 'Branding of this application',
};

export const appsDe: Catalog = {
  'appBranding.title': 'Branding von {name}',
  'appBranding.lead':
    'Was die Anmeldeseiten und E-Mails dieser Anwendung statt des Brandings des Mandanten zeigen. Ein leeres Feld übernimmt das des Mandanten.',
  'appBranding.save': 'Branding der Anwendung speichern',
  'appBranding.back': 'Zurück zu {name}',
  'kinds.legend': 'Art der Anwendung',
  'kinds.web': 'Webanwendung',
  'kinds.webHint':
    'Läuft auf einem Server, der ein Client-Geheimnis hält (vertraulich): Code-Flow mit PKCE, client_secret_basic, Refresh-Tokens.',
  'kinds.spa': 'Single-Page-Anwendung',
  'kinds.spaHint':
    'Läuft im Browser (öffentlich, ohne Geheimnis): Code-Flow mit PKCE; Refresh-Tokens bei jeder Nutzung ersetzt, höchstens 1 Tag.',
  'kinds.native': 'Native oder mobile Anwendung',
  'kinds.nativeHint':
    'Eine installierte App (öffentlich, ohne Geheimnis): PKCE im Systembrowser, zurück zu einem eigenen Schema wie com.example.app:/callback, einem beanspruchten https-Link oder http auf localhost.',
  'kinds.m2m': 'Maschine zu Maschine',
  'kinds.m2mHint':
    'Ein Server, der die Management-API von Sesame mit client_credentials aufruft: erzeugt API-Zugangsdaten (kein Name und keine Weiterleitungs-URIs nötig).',
  'kinds.redirectHint':
    'Eine pro Zeile: https oder http auf localhost. Nur eine native oder mobile Anwendung darf ein eigenes Schema wie com.example.app:/callback verwenden.',
  'kinds.webLead':
    'meldet Personen auf Ihrem Server mit dem Code-Flow an; das Client-Geheimnis bleibt auf dem Server.',
  'kinds.spaLead': 'meldet Personen im Browser mit dem Code-Flow und PKCE an; es gibt kein Geheimnis.',
  'kinds.nativeLead':
    'meldet Personen über den Systembrowser mit PKCE an (RFC 8252); es gibt kein Geheimnis.',
  'connect.title': 'Ihre App verbinden',
  'connect.issuer': 'Aussteller (Issuer)',
  'connect.discoveryUrl': 'Discovery-URL',
  'connect.copy': 'Kopieren',
  'connect.copied': '{what} in die Zwischenablage kopiert.',
  'connect.copyFailed': 'Kopieren nicht möglich: Wert auswählen und mit der Tastatur kopieren.',
  'connect.created': '{name} ist erstellt. Verbinden Sie Ihre App mit den Werten unten.',
  'connect.secretHidden':
    'Das Client-Geheimnis wird nur einmal gezeigt, wenn es entsteht; die Konfigurationen unten enthalten {placeholder} an seiner Stelle. Verloren? Im Gefahrenbereich erneuern.',
  'connect.snippetsLead':
    'Konfiguration zum Einfügen mit den Werten dieser Anwendung (Weiterleitungs-URI {redirect}):',
  'fields.fix': 'Einige Felder brauchen eine Änderung; jedes ist unten markiert:',
  'fields.required': 'ist erforderlich',
  'advanced.summary': 'Erweitert',
  'advanced.refreshTokens': 'Refresh-Tokens (offline_access)',
  'advanced.refreshHint':
    'Hält Personen in der App angemeldet: Jedes Refresh-Token wird bei Nutzung ersetzt, ein wiederverwendetes beendet alle.',
  'advanced.lifetimes': 'Token-Lebensdauern',
  'advanced.refreshAbsolute': 'Lebensdauer der Refresh-Tokens (Sekunden)',
  'advanced.refreshAbsoluteHint':
    'Ab der Anmeldung, egal wie oft genutzt: 60 bis 31536000. Leer: 2592000 (30 Tage).',
  'advanced.refreshIdle': 'Leerlauf-Lebensdauer der Refresh-Tokens (Sekunden)',
  'advanced.refreshIdleHint':
    'Endet, wenn so lange ungenutzt; höchstens die Lebensdauer oben. Leer: 604800 (7 Tage).',
  'advanced.links': 'Registrierung und Links',
  'advanced.logout': 'Abmeldung',
  'advanced.sessionRequired': 'Back-Channel-Abmeldung braucht die Sitzungs-ID (sid)',
  'advanced.signing': 'Signaturen',
  'advanced.requestObjectAlg': 'Signaturalgorithmus der Request Objects',
  'advanced.requestObjectAlgAny': 'Beliebig: signiert, unsigniert oder verschlüsselt',
  'advanced.requestObjectAlgHint':
    'Wenn gesetzt, nehmen /authorize und /par nur Request Objects an, die damit mit den registrierten Schlüsseln der Anwendung signiert sind (JAR).',
  'advanced.tokens': 'Token-Bindung',
  'advanced.clientAuth': 'Client-Authentifizierung',
  'advanced.authMethod': 'Methode der Client-Authentifizierung',
  'advanced.authMethodDefault': 'client_secret_basic (Standard)',
  'advanced.authMethodNone': 'none (öffentlicher Client: kein Geheimnis, PKCE)',
  'advanced.authMethodHint':
    'Wie sich die Anwendung bei /token, /par und den anderen Endpunkten ausweist: mit ihrem Client-Geheimnis (HTTP Basic oder im Formular), einem mit ihrem privaten Schlüssel signierten JWT (private_key_jwt) oder einem TLS-Client-Zertifikat (RFC 8705). Ein öffentlicher Client hat keine: zuerst seinen Client-Typ im Gefahrenbereich ändern.',
  'advanced.jwks': 'Öffentliche Schlüssel (JWK Set)',
  'advanced.jwksHint':
    'Die öffentlichen Schlüssel der Anwendung als JSON, {"keys": [ … ]}: für private_key_jwt, self_signed_tls_client_auth und signierte Request Objects. Nur öffentliche Schlüssel (kein d). Leer: keine.',
  'advanced.jwksNotJson': 'ist kein gültiges JSON: ein JWK Set wie {"keys": [ … ]} einfügen',
  'advanced.jwksUri': 'URL des JWK Sets',
  'advanced.jwksUriHint':
    'Wo die Anwendung ihre öffentlichen Schlüssel stattdessen veröffentlicht (https); bei Bedarf abgerufen. Das JWK Set oder seine URL angeben, nicht beides.',
  'advanced.requireDpop': 'DPoP verlangen',
  'advanced.requireDpopHint':
    'Tokens nur für Anfragen mit DPoP-Nachweis (RFC 9449): Die Access-Tokens der Anwendung sind an ihren Schlüssel gebunden.',
  'advanced.requirePar': 'Pushed Authorization Requests verlangen',
  'advanced.requireParHint':
    '/authorize nimmt Anfragen dieser Anwendung nur als request_uri von /par an (RFC 9126). Das FAPI-2.0-Profil verlangt das ohnehin.',
  'advanced.idTokenAlg': 'Signaturalgorithmus der ID-Tokens',
  'advanced.idTokenAlgDefault': 'RS256 (Standard)',
  'advanced.idTokenAlgHint':
    'ID-Tokens und Back-Channel-Logout-Tokens der Anwendung werden mit dem Schlüssel dieses Algorithmus aus /jwks signiert; die Anwendung muss ihn annehmen.',
  'advanced.profile': 'Sicherheitsprofil',
  'advanced.fapi2': 'FAPI-2.0-Profil',
  'advanced.fapi2Hint':
    'Setzt das FAPI 2.0 Security Profile durch: PAR, PKCE S256, DPoP- oder zertifikatsgebundene Tokens, private_key_jwt oder Mutual TLS, Codes 60 Sekunden gültig, Refresh-Tokens nicht rotiert.',
  'advanced.subjectDn': 'Subject-DN des Client-Zertifikats',
  'advanced.subjectDnHint':
    'Für tls_client_auth: der Subject des Zertifikats der Anwendung, z. B. CN=rp,O=Bank,C=DE. Leer für andere Methoden.',
  'advanced.certBound': 'Zertifikatsgebundene Access-Tokens',
  'advanced.certBoundHint':
    'Access-Tokens werden an das bei /token vorgelegte TLS-Client-Zertifikat gebunden (RFC 8705).',
  'advanced.ciba': 'CIBA (Anmeldung auf einem anderen Gerät)',
  'advanced.cibaExpiresIn': 'Lebensdauer einer CIBA-Anfrage (Sekunden)',
  'advanced.cibaExpiresHint': '60 bis 86400. Leer: 1800 (30 Minuten).',
  'advanced.branding': 'Branding',
  'advanced.brandingLink': 'Branding dieser Anwendung',
};

export const appsFr: Catalog = {
  'appBranding.title': 'Image de marque de {name}',
  'appBranding.lead':
    'Ce que les pages de connexion et e-mails de cette application montrent à la place de l’image de marque du tenant. Un champ vide reprend celle du tenant.',
  'appBranding.save': 'Enregistrer l’image de marque de l’application',
  'appBranding.back': 'Retour à {name}',
  'kinds.legend': 'Type d’application',
  'kinds.web': 'Application web',
  'kinds.webHint':
    'Tourne sur un serveur qui garde un secret client (confidentielle) : flux code avec PKCE, client_secret_basic, jetons de rafraîchissement.',
  'kinds.spa': 'Application monopage',
  'kinds.spaHint':
    'Tourne dans le navigateur (publique, sans secret) : flux code avec PKCE ; jetons de rafraîchissement remplacés à chaque usage, 1 jour au plus.',
  'kinds.native': 'Application native ou mobile',
  'kinds.nativeHint':
    'Une application installée (publique, sans secret) : PKCE dans le navigateur du système, retour vers un schéma propre comme com.example.app:/callback, un lien https revendiqué ou http sur localhost.',
  'kinds.m2m': 'Machine à machine',
  'kinds.m2mHint':
    'Un serveur qui appelle l’API de gestion de Sesame avec client_credentials : crée des identifiants d’API (ni nom ni URI de redirection).',
  'kinds.redirectHint':
    'Une par ligne : https, ou http sur localhost. Seule une application native ou mobile peut utiliser un schéma propre comme com.example.app:/callback.',
  'kinds.webLead':
    'connecte les personnes sur votre serveur avec le flux code ; le secret client reste sur le serveur.',
  'kinds.spaLead':
    'connecte les personnes depuis le navigateur avec le flux code et PKCE ; il n’y a pas de secret.',
  'kinds.nativeLead':
    'connecte les personnes via le navigateur du système avec PKCE (RFC 8252) ; il n’y a pas de secret.',
  'connect.title': 'Connecter votre application',
  'connect.issuer': 'Émetteur (issuer)',
  'connect.discoveryUrl': 'URL de découverte',
  'connect.copy': 'Copier',
  'connect.copied': '{what} copié dans le presse-papiers.',
  'connect.copyFailed': 'Copie impossible : sélectionnez la valeur et copiez-la au clavier.',
  'connect.created': '{name} est créée. Connectez votre application avec les valeurs ci-dessous.',
  'connect.secretHidden':
    'Le secret client n’est montré qu’une fois, à sa création ; les configurations ci-dessous portent {placeholder} à sa place. Perdu ? Renouvelez-le dans la zone de danger.',
  'connect.snippetsLead':
    'Configuration prête à coller avec les valeurs de cette application (URI de redirection {redirect}) :',
  'fields.fix': 'Certains champs sont à corriger ; chacun est signalé ci-dessous :',
  'fields.required': 'est obligatoire',
  'advanced.summary': 'Avancé',
  'advanced.refreshTokens': 'Jetons de rafraîchissement (offline_access)',
  'advanced.refreshHint':
    'Garde les personnes connectées à l’application : chaque jeton est remplacé à l’usage, et un jeton réutilisé les révoque tous.',
  'advanced.lifetimes': 'Durées de vie des jetons',
  'advanced.refreshAbsolute': 'Durée de vie des jetons de rafraîchissement (secondes)',
  'advanced.refreshAbsoluteHint':
    'Depuis la connexion, quel que soit l’usage : 60 à 31536000. Vide : 2592000 (30 jours).',
  'advanced.refreshIdle': 'Durée d’inactivité des jetons de rafraîchissement (secondes)',
  'advanced.refreshIdleHint':
    'Expire après cette durée sans usage ; au plus la durée de vie ci-dessus. Vide : 604800 (7 jours).',
  'advanced.links': 'Inscription et liens',
  'advanced.logout': 'Déconnexion',
  'advanced.sessionRequired': 'La déconnexion back-channel exige l’identifiant de session (sid)',
  'advanced.signing': 'Signatures',
  'advanced.requestObjectAlg': 'Algorithme de signature des request objects',
  'advanced.requestObjectAlgAny': 'Tous : signés, non signés ou chiffrés',
  'advanced.requestObjectAlgHint':
    'S’il est choisi, /authorize et /par n’acceptent que les request objects signés avec lui par les clés enregistrées de l’application (JAR).',
  'advanced.tokens': 'Liaison des jetons',
  'advanced.clientAuth': 'Authentification du client',
  'advanced.authMethod': 'Méthode d’authentification du client',
  'advanced.authMethodDefault': 'client_secret_basic (par défaut)',
  'advanced.authMethodNone': 'none (client public : pas de secret, PKCE)',
  'advanced.authMethodHint':
    'Comment l’application prouve son identité à /token, /par et aux autres points d’accès : son secret client (HTTP Basic ou dans le formulaire), un JWT signé avec sa clé privée (private_key_jwt) ou un certificat client TLS (RFC 8705). Un client public n’en a aucune : changez d’abord son type de client dans la zone de danger.',
  'advanced.jwks': 'Clés publiques (JWK Set)',
  'advanced.jwksHint':
    'Les clés publiques de l’application en JSON, {"keys": [ … ]} : pour private_key_jwt, self_signed_tls_client_auth et les request objects signés. Clés publiques seulement (pas de d). Vide : aucune.',
  'advanced.jwksNotJson': 'n’est pas du JSON valide : collez un JWK Set comme {"keys": [ … ]}',
  'advanced.jwksUri': 'URL du JWK Set',
  'advanced.jwksUriHint':
    'Où l’application publie plutôt ses clés publiques (https), récupérées au besoin. Donnez le JWK Set ou son URL, pas les deux.',
  'advanced.requireDpop': 'Exiger DPoP',
  'advanced.requireDpopHint':
    'Des jetons seulement pour les requêtes avec une preuve DPoP (RFC 9449) : les jetons d’accès de l’application sont liés à sa clé.',
  'advanced.requirePar': 'Exiger les requêtes d’autorisation poussées (PAR)',
  'advanced.requireParHint':
    '/authorize n’accepte les requêtes de cette application que sous forme de request_uri obtenu de /par (RFC 9126). Le profil FAPI 2.0 l’exige de toute façon.',
  'advanced.idTokenAlg': 'Algorithme de signature des ID tokens',
  'advanced.idTokenAlgDefault': 'RS256 (par défaut)',
  'advanced.idTokenAlgHint':
    'Les ID tokens et les logout tokens back-channel de l’application sont signés avec la clé de cet algorithme publiée dans /jwks ; l’application doit l’accepter.',
  'advanced.profile': 'Profil de sécurité',
  'advanced.fapi2': 'Profil FAPI 2.0',
  'advanced.fapi2Hint':
    'Applique le FAPI 2.0 Security Profile : PAR, PKCE S256, jetons DPoP ou liés au certificat, private_key_jwt ou TLS mutuel, codes valables 60 secondes, refresh tokens sans rotation.',
  'advanced.subjectDn': 'DN du sujet du certificat client',
  'advanced.subjectDnHint':
    'Pour tls_client_auth : le sujet du certificat de l’application, par ex. CN=rp,O=Bank,C=DE. Vide pour les autres méthodes.',
  'advanced.certBound': 'Jetons d’accès liés au certificat',
  'advanced.certBoundHint':
    'Les jetons d’accès sont liés au certificat client TLS présenté à /token (RFC 8705).',
  'advanced.ciba': 'CIBA (connexion sur un autre appareil)',
  'advanced.cibaExpiresIn': 'Durée de vie d’une demande CIBA (secondes)',
  'advanced.cibaExpiresHint': '60 à 86400. Vide : 1800 (30 minutes).',
  'advanced.branding': 'Image de marque',
  'advanced.brandingLink': 'Image de marque de cette application',
};
