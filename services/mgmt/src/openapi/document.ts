import * as activityLogs from './activity-logs';
import * as adminLogs from './admin-logs';
import * as administrators from './administrators';
import * as applications from './applications';
import * as attempts from './attempts';
import * as branding from './branding';
import * as common from './common';
import * as credentials from './credentials';
import * as devicesAndKeys from './devices-and-keys';
import * as interactive from './interactive';
import * as people from './people';
import * as personAccess from './person-access';
import * as sendActivation from './send-activation';
import * as support from './support';
import * as tenants from './tenants';
import * as users from './users';

/** A piece of the document: the paths one group of routes serves and the schemas they use. */
export interface OpenApiFragment {
  paths: Record<string, unknown>;
  schemas: Record<string, unknown>;
}

const fragments: OpenApiFragment[] = [
  tenants,
  applications,
  credentials,
  administrators,
  branding,
  devicesAndKeys,
  users,
  support,
  sendActivation,
  activityLogs,
  adminLogs,
  interactive,
  attempts,
  personAccess,
  people,
];

const onApiUrl = (item: { post: object }, apiUrl: string) => ({
  ...item,
  post: { ...item.post, servers: [{ url: apiUrl }] },
});

/** The OpenAPI 3.1 document of the management and admin APIs, served at {admin_url}/openapi.json. */
export function buildOpenApiDocument(adminUrl: string, apiUrl = adminUrl): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = { ...common.schemas };
  for (const fragment of fragments) {
    for (const [path, item] of Object.entries(fragment.paths)) {
      if (path in paths) throw new Error(`OpenAPI: path ${path} is described twice`);
      // Interactive init is served on api_url, not admin_url.
      paths[path] = path === interactive.INIT ? onApiUrl(item as { post: object }, apiUrl) : item;
    }
    for (const [name, schema] of Object.entries(fragment.schemas)) {
      if (name in schemas && schemas[name] !== schema)
        throw new Error(`OpenAPI: schema ${name} is defined twice`);
      schemas[name] = schema;
    }
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Sesame management and admin API',
      version: '1.0.0',
      description: [
        'Management API (`/api/v1/mgmt/*`, `/api/vbeta/mgmt/*`): bearer token from /token client_credentials (scope svc_admin_api).',
        "Admin API (`/api/v1/admin/*`): `Authorization: Bearer <personal API token>` (or the bootstrap key on an empty install or under break-glass). Every call is checked against the caller's role (Owner, Administrator, Support) in the tenant it acts on (403 otherwise), and every admin event carries the authenticated administrator's email, the token id as session id, and the client IP.",
        'Every error is `{"status":"error","error":{"code","message","fields?"}}`.',
      ].join('\n\n'),
    },
    servers: [{ url: adminUrl }],
    paths,
    components: { ...common.components, schemas },
  };
}
