import QRCode from 'qrcode';

/**
 * The link as a QR code, drawn on the server (qrcode, MIT) as SVG; the page shows it as a data: URL in an
 * <img>: the strict CSP allows `img-src data:`, and no inline markup or style reaches the document.
 */
export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
