import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** Field names whose values are secrets: they never reach a log line. */
export const secretFields = [
  'password',
  'secret',
  'client_secret',
  'clientSecret',
  'clientSecretSealed',
  'apiSecret',
  'code',
  'code_verifier',
  'access_token',
  'id_token',
  'refresh_token',
  'auth_req_id',
  'otp',
  'token',
  'client_notification_token',
  'privateKeyPem',
  'private_key_pem',
  'kek',
];

const redactPaths = [
  ...secretFields,
  ...secretFields.map((f) => `*.${f}`),
  ...secretFields.map((f) => `*.*.${f}`),
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
];

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where to write; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: pino.DestinationStream;
}

export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service },
      redact: { paths: redactPaths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
