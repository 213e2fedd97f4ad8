import type { RequestHandler } from 'express';
import { tokenErrors } from '../errors';

/** /token takes application/x-www-form-urlencoded only (spec 4.1); JSON or anything else is refused. */
export const requireFormBody: RequestHandler = (req, _res, next) => {
  if (!req.is('application/x-www-form-urlencoded')) {
    next(tokenErrors.invalidRequest('Content-Type must be application/x-www-form-urlencoded'));
    return;
  }
  next();
};
