import express from 'express';
import { renderDevMailPage } from './dev-mail-page';
import type { DevOutbox } from './dev-outbox';

/**
 * GET /dev/mail (HTML) and /dev/mail.json for the development outbox. The caller mounts this only when
 * SESAME_ENV is development: these pages show sign-in codes and links to whoever asks. `/dev/mail.json?to=`
 * lists only the messages to that address (as the test mailbox's `/messages?to=` does), so a script waiting
 * for one sign-in mail does not fetch the whole outbox each time.
 */
export function devMailRouter(outbox: DevOutbox): express.Router {
  const router = express.Router();
  router.get('/dev/mail.json', (req, res) => {
    const to = typeof req.query.to === 'string' ? req.query.to : undefined;
    res.set('Cache-Control', 'no-store').json({ messages: outbox.list(to) });
  });
  router.get('/dev/mail', (_req, res) => {
    res.set('Cache-Control', 'no-store').type('html').send(renderDevMailPage(outbox.list()));
  });
  return router;
}
