import Bowser from 'bowser';

/**
 * What a User-Agent says about the device behind a request: the spec's device info object (2.2:
 * device_name, os_type, os_version, browser_type, browser_version) and the activity log's DeviceInfo (2.4).
 * Every field is a string; what the UA does not say is `Unknown`.
 *
 * deviceName is "<manufacturer> <model>" when the UA names a model (Apple iPhone, Apple iPad,
 * Google Pixel 7, Samsung SM-S918B: Samsung's model code, as no UA carries the marketing name); else a
 * description of the kind of device: Mac, Windows PC, Linux PC, Chromebook, Android phone, Android tablet,
 * "<vendor> bot" for a known crawler. Browsers freeze parts of the UA (macOS stays 10.15.7, Windows 11 says
 * 10, reduced Android UAs say model "K"); the real values need client hints, which this does not read.
 */
export interface DeviceFacts {
  deviceName: string;
  osType: string;
  osVersion: string;
  browserType: string;
  browserVersion: string;
}

export const UNKNOWN = 'Unknown';

/**
 * Real UAs stay under a few hundred characters; anything past this is ignored, so a hostile 10 KB header
 * costs no more than a normal one (and cannot feed backtracking regular expressions in the parser).
 */
export const MAX_USER_AGENT_LENGTH = 1024;

/** A value that ends up in tokens and logs: short, one line. */
const MAX_FIELD_LENGTH = 64;

// Android UAs name the model as the parser does not: "(Linux; Android 14; Pixel 7)", "(Linux; U;
// Android 4.0.3; ko-kr; LG-L160L Build/IML74K)". Bounded repetitions keep the match linear.
const ANDROID_MODEL =
  /Android[^;)]{0,32};(?:\s*[a-z]{2}(?:[-_][a-z]{2})?;)?\s*([^;)]{1,80}?)\s*(?:Build\/[^;)]{0,80})?[;)]/i;
// Placeholders that name no model: the reduced UA's "K", WebView's "wv", old Firefox's "Mobile".
const NOT_A_MODEL = /^(?:k|wv|mobile|tablet|u)$/i;
// Manufacturers of common Android models, by model prefix; a model not listed is shown alone.
const ANDROID_VENDORS: [RegExp, string][] = [
  [/^(?:pixel|nexus)\b/i, 'Google'],
  [/^(?:sm-|gt-|sch-|sgh-|galaxy\b)/i, 'Samsung'],
  [/^(?:moto|xt\d)/i, 'Motorola'],
  [/^(?:redmi|mi\s|poco|xiaomi)/i, 'Xiaomi'],
  [/^oneplus/i, 'OnePlus'],
  [/^(?:huawei|honor)/i, 'Huawei'],
  [/^nokia/i, 'Nokia'],
  [/^lg-/i, 'LG'],
  [/^(?:xperia|sony)/i, 'Sony'],
];

/** Never throws: absent, empty, garbage or non-string input gives every field `Unknown`. */
export function deviceFromUserAgent(ua: string | undefined): DeviceFacts {
  const text = typeof ua === 'string' ? clean(ua.slice(0, MAX_USER_AGENT_LENGTH)) : '';
  if (text === '') return unknownDevice();
  let parsed: Bowser.Parser.ParsedResult;
  try {
    parsed = Bowser.parse(text);
  } catch {
    return unknownDevice();
  }
  const osType = field(parsed.os.name);
  return {
    deviceName: deviceName(parsed, text),
    osType,
    // Windows UAs carry the NT kernel version ("NT 10.0"); the parser maps it to the marketing one ("10").
    osVersion: field(osType === 'Windows' ? parsed.os.versionName : parsed.os.version),
    browserType: field(parsed.browser.name),
    browserVersion: field(parsed.browser.version),
  };
}

/**
 * The activity log's accessingDevice text (spec 2.4): "<os type> <os version>, <browser type> <browser
 * version>", e.g. "Windows 10, Chrome 131.0.0.0". Unknown parts are left out ("Linux, Firefox 132.0");
 * nothing known at all reads `Unknown`.
 */
export function describeDevice(d: DeviceFacts): string {
  const join = (...parts: string[]) => parts.filter((p) => p !== UNKNOWN && p !== '').join(' ');
  const text = [join(d.osType, d.osVersion), join(d.browserType, d.browserVersion)]
    .filter(Boolean)
    .join(', ');
  return text === '' ? UNKNOWN : text;
}

function deviceName(parsed: Bowser.Parser.ParsedResult, ua: string): string {
  const { type, vendor, model } = parsed.platform;
  const os = parsed.os.name;
  if (type === 'bot') return vendor ? `${vendor} bot` : 'Bot';
  if (vendor && model) return field(`${vendor} ${model}`);
  if (os === 'Android') {
    const named = androidModel(ua);
    if (named) return named;
    return type === 'tablet' ? 'Android tablet' : 'Android phone';
  }
  switch (os) {
    case 'macOS':
      return 'Mac';
    case 'Windows':
      return 'Windows PC';
    case 'Linux':
      return 'Linux PC';
    case 'Chrome OS':
      return 'Chromebook';
    default:
      return UNKNOWN;
  }
}

function androidModel(ua: string): string | undefined {
  const model = ANDROID_MODEL.exec(ua)?.[1]?.trim();
  if (!model || NOT_A_MODEL.test(model)) return undefined;
  const vendor = ANDROID_VENDORS.find(([prefix]) => prefix.test(model))?.[1];
  // "HUAWEI P30" already names its maker.
  const named =
    vendor && !model.toLowerCase().startsWith(vendor.toLowerCase()) ? `${vendor} ${model}` : model;
  return field(named);
}

/** Control characters become spaces, runs of space collapse: a UA is one line of text. */
function clean(text: string): string {
  return text
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function field(value: string | undefined): string {
  const text = value === undefined ? '' : clean(value).slice(0, MAX_FIELD_LENGTH);
  return text === '' ? UNKNOWN : text;
}

function unknownDevice(): DeviceFacts {
  return {
    deviceName: UNKNOWN,
    osType: UNKNOWN,
    osVersion: UNKNOWN,
    browserType: UNKNOWN,
    browserVersion: UNKNOWN,
  };
}

/**
 * deviceFromUserAgent with a bounded memory of recent answers: the same few hundred User-Agent strings make
 * nearly all requests, and a parse is one of the larger costs of a hosted page request (bench/authorize). The oldest answer
 * goes first once `capacity` are kept; callers get a copy, so no one can change what later callers see.
 */
export function memoizedDeviceFacts(capacity = 1000): (ua: string | undefined) => DeviceFacts {
  const seen = new Map<string, DeviceFacts>();
  return (ua) => {
    if (typeof ua !== 'string') return deviceFromUserAgent(ua);
    const key = ua.slice(0, MAX_USER_AGENT_LENGTH);
    let facts = seen.get(key);
    if (!facts) {
      facts = deviceFromUserAgent(key);
      if (seen.size >= capacity) seen.delete(seen.keys().next().value as string);
      seen.set(key, facts);
    }
    return { ...facts };
  };
}
