export { AA_TEXT, AA_UI, HEX_COLOUR, contrastRatio, formatRatio, luminance } from './colour';
export {
  type BrandingSettings,
  type BrandingSettingsInput,
  type CornerStyle,
  type LogoType,
  type SchemeColours,
  type SchemeName,
  brandingSettingsSchema,
  buttonLabel,
  contrastProblems,
  cornerStyles,
  logoTypes,
  mergeBranding,
  schemeNames,
} from './settings';
export {
  type MailKind,
  type MailLocale,
  type MailTemplate,
  PLACEHOLDERS,
  fill,
  hasButton,
  mailKinds,
  mailLocales,
  mailTemplateSchema,
  placeholdersIn,
  templateFields,
  templateProblems,
} from './mail-templates';
export { DEFAULT_TEMPLATES } from './mail-defaults';
export { type MailBrand, type RenderedMail, escapeHtml, renderMail } from './mail-layout';
export { BRAND_PATH, brandCss, contentHash, logoPath, stylesheetPath } from './brand-css';
export { baseCss } from './base-css';
export { CONSOLE_SHELL_CSS } from './console-css';
export {
  DISPLAY_TEXT_MESSAGE,
  LONE_SURROGATE,
  UNSAFE_DISPLAY_CHARS,
  displayText,
  oneLineValue,
} from './display-text';
