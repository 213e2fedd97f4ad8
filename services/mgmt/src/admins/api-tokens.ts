import { newSecret } from '@sesame/platform';

/** Personal API tokens start with this, so they are told from the bootstrap key and found by secret scanners. */
export const API_TOKEN_PREFIX = 'sesame_pat_';

/** A new personal API token (shown once; only its sha256 hash is stored). */
export const newApiToken = (): string => `${API_TOKEN_PREFIX}${newSecret()}`;

export const isApiToken = (value: string): boolean => value.startsWith(API_TOKEN_PREFIX);

/** Default and longest lifetime of a personal API token, in days. */
export const API_TOKEN_DEFAULT_DAYS = 90;
export const API_TOKEN_MAX_DAYS = 366;
