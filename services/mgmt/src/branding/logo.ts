import { type LogoType, contentHash, logoTypes } from '@sesame/branding';
import { MgmtError } from '@sesame/platform';
import { sanitizeSvg } from './svg-sanitize';

/** The largest logo accepted, in bytes (64 KiB). */
export const MAX_LOGO_BYTES = 64 * 1024;

export interface Logo {
  contentType: LogoType;
  /** Content hash of `data` (10 hex digits): the logo's URL changes with it. */
  hash: string;
  data: Buffer;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const isPng = (b: Buffer) => b.length > PNG.length && b.subarray(0, PNG.length).equals(PNG);
const isWebp = (b: Buffer) =>
  b.length > 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP';

const refuse = (message: string) => new MgmtError(400, 'invalid_request', `logo: ${message}`);

/**
 * A logo as uploaded, checked: at most 64 KiB; the bytes are what the declared type says (PNG and WebP by
 * their magic bytes, SVG by parsing it); an SVG is rewritten by the allow-list cleaner (svg-sanitize.ts).
 */
export function checkLogo(declared: string, data: Buffer): Logo {
  const contentType = declared.split(';')[0]!.trim().toLowerCase() as LogoType;
  if (!logoTypes.includes(contentType))
    throw refuse(`the type must be one of ${logoTypes.join(', ')} (got ${declared || 'none'})`);
  if (data.length === 0) throw refuse('is empty');
  if (data.length > MAX_LOGO_BYTES)
    throw refuse(`is ${data.length} bytes; at most ${MAX_LOGO_BYTES} bytes are allowed`);
  let bytes = data;
  if (contentType === 'image/png' && !isPng(data))
    throw refuse('is not a PNG image (its first bytes are not the PNG signature)');
  if (contentType === 'image/webp' && !isWebp(data))
    throw refuse('is not a WebP image (no RIFF/WEBP header)');
  if (contentType === 'image/svg+xml') {
    if (isPng(data) || isWebp(data)) throw refuse('is not an SVG document');
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(data);
    } catch {
      throw refuse('an SVG must be UTF-8 text');
    }
    try {
      bytes = Buffer.from(sanitizeSvg(text), 'utf8');
    } catch (err) {
      throw refuse((err as Error).message);
    }
  }
  return { contentType, hash: contentHash(bytes), data: bytes };
}
