import pino, { type Logger } from 'pino';
import { scrubError, scrubLogObject, scrubText } from './logger-scrub';
import { activeSpanIds, activeTracer } from './tracing';

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
  // What a mail or text message is made of: a subject may hold the code ("Your code is {{code}}"), a body the
  // code or a sign-in link. Logs name a message by kind, locale, tenant and id instead (libs/mail, libs/sms).
  'subject',
  'text',
  'html',
  'Body',
  'link',
  'magicLink',
  'magic_link',
];

const redactPaths = [
  ...secretFields,
  ...secretFields.map((f) => `*.${f}`),
  ...secretFields.map((f) => `*.*.${f}`),
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'mail.body',
  'sms.body',
  'message.body',
];

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Where to write; defaults to stdout. Tests pass a stream to read what was logged. */
  destination?: pino.DestinationStream;
}

/** With tracing on, each line logged inside a span carries its trace_id and span_id. */
function traceIdsMixin(): object {
  const ids = activeSpanIds();
  return ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}

export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      // Only when tracing is on (started before the service's loggers exist): off, a line costs nothing more.
      ...(activeTracer() ? { mixin: traceIdsMixin } : {}),
      base: { service },
      redact: { paths: redactPaths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        // URL and path fields keep their shape and lose link tokens and secret query values (logger-scrub.ts)
        log: (obj) => scrubLogObject(obj),
      },
      serializers: { err: (err) => scrubError(pino.stdSerializers.err(err)) },
      hooks: {
        // the message string too: a `${url}` written into it is scrubbed like a url field
        logMethod(args, method) {
          const scrubbed = args.map((a) => (typeof a === 'string' ? scrubText(a) : a));
          return method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}
