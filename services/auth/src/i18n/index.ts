export { LOCALES, DEFAULT_LOCALE, type Locale, negotiateLocale } from './locale';
export {
  translate,
  translateHtml,
  escapeHtml,
  hasMessage,
  MissingMessageError,
  type MessageVars,
} from './catalogs';
