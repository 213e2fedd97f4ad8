/** Limits of the public interface, each declared once and imported by every check and schema that uses it. */

/** Activity-log pages (spec 8): the default and the most records one page may hold. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 5000;

/** binding_message: short enough to read and compare at a glance (CIBA Core §7.1). */
export const MAX_BINDING_MESSAGE = 100;

/** svc_custom_message: room for a sentence or two on the consent screen, small enough for a phone. */
export const MAX_CUSTOM_MESSAGE = 500;

/** The claims parameter: large enough for rich additional_data, small enough for ID tokens and flow state. */
export const MAX_CLAIMS_LENGTH = 16 * 1024;

/**
 * Refresh tokens (per app, in the Directory): the longest absolute lifetime an app may set (a family ends
 * then, however often it is used), and the defaults of an app that enables them without lifetimes.
 */
export const MAX_REFRESH_ABSOLUTE_LIFETIME_S = 365 * 24 * 3600;
export const DEFAULT_REFRESH_ABSOLUTE_LIFETIME_S = 30 * 24 * 3600;
export const DEFAULT_REFRESH_IDLE_LIFETIME_S = 7 * 24 * 3600;
