import {
  DISPLAY_TEXT_RULE,
  adminOperation,
  appIdParam,
  closedObject,
  epochMs,
  errors,
  json,
  jsonBody,
  pathParam,
  ref,
  tenantIdParam,
} from './common';

const colour = { type: 'string', pattern: '^#[0-9a-f]{6}$' };
const scheme = closedObject(['accent', 'background'], { accent: colour, background: colour });
const settingsProperties = {
  displayName: { type: 'string', maxLength: 80, description: DISPLAY_TEXT_RULE },
  light: scheme,
  dark: scheme,
  cornerStyle: { enum: ['square', 'rounded', 'pill'] },
  supportUrl: { type: 'string' },
  privacyUrl: { type: 'string' },
  mailSenderName: {
    type: 'string',
    maxLength: 80,
    description: `${DISPLAY_TEXT_RULE} Also no quotes, commas, colons, semicolons, @, < or >.`,
  },
  mailReplyTo: { type: 'string' },
};
const templateProperties = {
  subject: { type: 'string' },
  preheader: { type: 'string' },
  heading: { type: 'string' },
  body: { type: 'string' },
  button: { type: 'string' },
};

export const schemas = {
  Branding: closedObject(
    ['tenantId', 'settings', 'updatedAt'],
    {
      tenantId: { type: 'string' },
      appId: { type: 'string' },
      settings: closedObject([], {
        ...settingsProperties,
        logo: closedObject(['contentType', 'hash'], {
          contentType: { enum: ['image/png', 'image/webp', 'image/svg+xml'] },
          hash: { type: 'string' },
        }),
      }),
      updatedAt: { anyOf: [epochMs, { type: 'null' }] },
    },
    "A tenant's branding, or an application's override of it (absent settings: Sesame's default).",
  ),
  MailTemplate: closedObject(['mail', 'locale', 'template', 'custom'], {
    mail: { enum: ['sign-in-code', 'magic-link', 'registration-link', 'admin-invitation'] },
    locale: { enum: ['en', 'de', 'fr'] },
    template: closedObject(['subject', 'preheader', 'heading', 'body', 'button'], templateProperties),
    custom: { type: 'boolean', description: "false: Sesame's default text" },
  }),
};

const branding = { '200': json('The branding', ref('Branding')) };
const EVENT =
  'A real change publishes administrator_update_branding_authentication (data: diff, appId for an app).';
const settingsBody = jsonBody(
  closedObject([], settingsProperties, 'Colour pairs must meet WCAG AA: the 400 names the measured ratio.'),
);

function brandingPaths(base: string, params: object[]) {
  return {
    [base]: {
      parameters: params,
      get: adminOperation({ summary: 'Get the branding', responses: { ...branding, ...errors(401, 404) } }),
      put: adminOperation({
        summary: 'Replace the branding settings (the logo stays)',
        description: EVENT,
        requestBody: settingsBody,
        responses: { ...branding, ...errors(400, 401, 404) },
      }),
      delete: adminOperation({
        summary: "Reset to Sesame's default (settings and logo)",
        description: EVENT,
        responses: { ...branding, ...errors(401, 404) },
      }),
    },
    [`${base}/logo`]: {
      parameters: params,
      put: adminOperation({
        summary: 'Set the logo',
        description: `The image bytes as the body (image/png, image/webp or image/svg+xml, at most 64 KiB, checked by magic bytes; an SVG is rewritten by an allow-list). ${EVENT}`,
        requestBody: {
          required: true,
          content: Object.fromEntries(
            ['image/png', 'image/webp', 'image/svg+xml'].map((t) => [
              t,
              { schema: { type: 'string', format: 'binary' } },
            ]),
          ),
        },
        responses: { ...branding, ...errors(400, 401, 404) },
      }),
      delete: adminOperation({
        summary: 'Remove the logo',
        description: EVENT,
        responses: { ...branding, ...errors(401, 404) },
      }),
    },
  };
}

const TENANT = '/api/v1/admin/tenants/{tenantId}/branding';
export const TEMPLATE = `${TENANT}/mail-templates/{mail}/{locale}`;
const template = { '200': json('The mail template', ref('MailTemplate')) };
const templateParams = [
  tenantIdParam,
  pathParam('mail', 'sign-in-code, magic-link, registration-link or admin-invitation'),
  pathParam('locale', 'en, de or fr'),
];
const TEMPLATE_EVENT =
  'A real change publishes administrator_update_branding_email_template (data: diff, mail, locale).';

export const paths = {
  ...brandingPaths(TENANT, [tenantIdParam]),
  ...brandingPaths('/api/v1/admin/tenants/{tenantId}/applications/{appId}/branding', [
    tenantIdParam,
    appIdParam,
  ]),
  [TEMPLATE]: {
    parameters: templateParams,
    get: adminOperation({
      summary: "A mail's text in a locale (the tenant's, else the default)",
      responses: { ...template, ...errors(401, 404) },
    }),
    put: adminOperation({
      summary: "Save the tenant's text of a mail",
      description: `{{name}} placeholders; an unknown one, or a required one missing from heading and body, is a 400. ${TEMPLATE_EVENT}`,
      requestBody: jsonBody(closedObject(['subject', 'heading', 'body'], templateProperties)),
      responses: { ...template, ...errors(400, 401, 404) },
    }),
    delete: adminOperation({
      summary: 'Back to the default text',
      description: TEMPLATE_EVENT,
      responses: { ...template, ...errors(401, 404) },
    }),
  },
};
