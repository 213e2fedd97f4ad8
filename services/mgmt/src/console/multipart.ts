import { MalformedBodyError, strictUtf8 } from '@sesame/platform';
import express, { type RequestHandler } from 'express';

/** One file of a multipart form. */
export interface FormFile {
  contentType: string;
  filename: string;
  data: Buffer;
}

/**
 * Parses a multipart/form-data body (RFC 7578) into text fields and files; the console's one form with a file
 * (Branding's logo). Fields are strings (the last of a name wins); an empty file input is no file. No boundary, or
 * a text field that is not UTF-8, is a MalformedBodyError (400).
 */
export function parseMultipart(body: Buffer, contentType: string): Record<string, string | FormFile> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const b = boundary?.[1] ?? boundary?.[2];
  if (!b) throw new MalformedBodyError('multipart/form-data without a boundary');
  const delimiter = Buffer.from(`--${b}`);
  const out: Record<string, string | FormFile> = {};
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    // CRLF after the delimiter, headers, CRLF CRLF, content, CRLF before the next delimiter
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split !== -1) {
      const headers = part.subarray(0, split).toString('utf8');
      const content = part.subarray(split + 4);
      const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
      const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
      const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
      if (name) {
        if (filename !== undefined) {
          const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream';
          if (filename || content.length)
            out[name] = { contentType: type, filename, data: Buffer.from(content) };
        } else out[name] = strictUtf8(content);
      }
    }
    at = next;
  }
  return out;
}

/** Reads a multipart/form-data body of at most `limit` into req.body (other bodies pass untouched). */
export function multipartForm(limit: string): RequestHandler[] {
  return [
    express.raw({ type: 'multipart/form-data', limit }),
    (req, _res, next) => {
      if (!Buffer.isBuffer(req.body)) return next();
      try {
        req.body = parseMultipart(req.body, req.get('content-type') ?? '');
        next();
      } catch (err) {
        next(err);
      }
    },
  ];
}
