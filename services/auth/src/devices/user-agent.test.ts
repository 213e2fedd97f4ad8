import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import {
  type DeviceFacts,
  MAX_USER_AGENT_LENGTH,
  describeDevice,
  deviceFromUserAgent,
  memoizedDeviceFacts,
} from './user-agent';

// Real User-Agent strings as the browsers send them (reduced UAs where the browser reduces them).
const ua = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  safariIpad:
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromePixel:
    'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  chromeAndroidReduced:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  samsungWebView:
    'Mozilla/5.0 (Linux; Android 13; SM-S918B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.51',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

const unknown: DeviceFacts = {
  deviceName: 'Unknown',
  osType: 'Unknown',
  osVersion: 'Unknown',
  browserType: 'Unknown',
  browserVersion: 'Unknown',
};

describe('deviceFromUserAgent', () => {
  it('Chrome on Windows: a Windows PC, Windows 10, Chrome 131.0.0.0', () => {
    assert.deepEqual(deviceFromUserAgent(ua.chromeWindows), {
      deviceName: 'Windows PC',
      osType: 'Windows',
      osVersion: '10',
      browserType: 'Chrome',
      browserVersion: '131.0.0.0',
    });
  });

  it('Safari on macOS: a Mac, macOS 10.15.7 (the version Safari freezes), Safari 18.1', () => {
    assert.deepEqual(deviceFromUserAgent(ua.safariMac), {
      deviceName: 'Mac',
      osType: 'macOS',
      osVersion: '10.15.7',
      browserType: 'Safari',
      browserVersion: '18.1',
    });
  });

  it('Safari on iPhone: Apple iPhone, iOS 18.1, Safari 18.1', () => {
    assert.deepEqual(deviceFromUserAgent(ua.safariIphone), {
      deviceName: 'Apple iPhone',
      osType: 'iOS',
      osVersion: '18.1',
      browserType: 'Safari',
      browserVersion: '18.1',
    });
  });

  it('Safari on iPad: Apple iPad, iOS 17.5', () => {
    const d = deviceFromUserAgent(ua.safariIpad);
    assert.deepEqual([d.deviceName, d.osType, d.osVersion], ['Apple iPad', 'iOS', '17.5']);
  });

  it('Chrome on a Pixel: Google Pixel 7, Android 14, Chrome 131.0.6778.81', () => {
    assert.deepEqual(deviceFromUserAgent(ua.chromePixel), {
      deviceName: 'Google Pixel 7',
      osType: 'Android',
      osVersion: '14',
      browserType: 'Chrome',
      browserVersion: '131.0.6778.81',
    });
  });

  it('a reduced Android UA (model "K") names no model: Android phone', () => {
    const d = deviceFromUserAgent(ua.chromeAndroidReduced);
    assert.deepEqual([d.deviceName, d.osType, d.osVersion], ['Android phone', 'Android', '10']);
  });

  it('an Android WebView UA: the model before "Build/", vendor from its prefix (Samsung SM-S918B)', () => {
    assert.equal(deviceFromUserAgent(ua.samsungWebView).deviceName, 'Samsung SM-S918B');
  });

  it('Firefox on Linux: a Linux PC, Linux with no version stated, Firefox 132.0', () => {
    assert.deepEqual(deviceFromUserAgent(ua.firefoxLinux), {
      deviceName: 'Linux PC',
      osType: 'Linux',
      osVersion: 'Unknown',
      browserType: 'Firefox',
      browserVersion: '132.0',
    });
  });

  it('Edge on Windows: browser Microsoft Edge 131.0.2903.51, not Chrome', () => {
    const d = deviceFromUserAgent(ua.edgeWindows);
    assert.deepEqual(
      [d.browserType, d.browserVersion, d.deviceName],
      ['Microsoft Edge', '131.0.2903.51', 'Windows PC'],
    );
  });

  it('a crawler: deviceName Google bot, browser Googlebot 2.1, OS unknown', () => {
    assert.deepEqual(deviceFromUserAgent(ua.googlebot), {
      deviceName: 'Google bot',
      osType: 'Unknown',
      osVersion: 'Unknown',
      browserType: 'Googlebot',
      browserVersion: '2.1',
    });
  });

  it('an absent, empty or blank UA gives every field Unknown', () => {
    assert.deepEqual(deviceFromUserAgent(undefined), unknown);
    assert.deepEqual(deviceFromUserAgent(''), unknown);
    assert.deepEqual(deviceFromUserAgent('   '), unknown);
  });

  it('garbage (control characters, brackets, a non-string at run time) gives every field Unknown', () => {
    assert.deepEqual(deviceFromUserAgent('\u0000\u00ff}{;;(('), unknown);
    assert.deepEqual(deviceFromUserAgent('curl/8.5.0'), unknown);
    assert.deepEqual(deviceFromUserAgent(42 as unknown as string), unknown);
  });

  it('control characters never reach a field (they would end up in logs and tokens)', () => {
    const d = deviceFromUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel\u00007\n) Chrome/131.0 Mobile');
    for (const value of Object.values(d)) assert.doesNotMatch(value, /\p{Cc}/u);
  });

  it(`only the first ${MAX_USER_AGENT_LENGTH} characters are parsed: a 10 KB UA takes under 50 ms`, () => {
    const padding = ' (x; y; z)'.repeat(1024);
    const started = performance.now();
    const d = deviceFromUserAgent(ua.chromeWindows + padding);
    const tail = deviceFromUserAgent('x'.repeat(MAX_USER_AGENT_LENGTH) + ua.chromeWindows);
    const elapsed = performance.now() - started;
    assert.equal(d.browserType, 'Chrome');
    assert.deepEqual(tail, unknown, 'what lies past the cap is ignored');
    assert.ok(elapsed < 50, `took ${elapsed.toFixed(1)} ms`);
  });
});

describe('describeDevice', () => {
  it('reads "<os type> <os version>, <browser type> <browser version>"', () => {
    assert.equal(describeDevice(deviceFromUserAgent(ua.chromeWindows)), 'Windows 10, Chrome 131.0.0.0');
    assert.equal(describeDevice(deviceFromUserAgent(ua.safariIphone)), 'iOS 18.1, Safari 18.1');
  });

  it('leaves out what is Unknown rather than printing it', () => {
    assert.equal(describeDevice(deviceFromUserAgent(ua.firefoxLinux)), 'Linux, Firefox 132.0');
    assert.equal(describeDevice(deviceFromUserAgent(ua.googlebot)), 'Googlebot 2.1');
  });

  it('says Unknown when nothing is known', () => {
    assert.equal(describeDevice(unknown), 'Unknown');
  });
});

describe('memoizedDeviceFacts', () => {
  const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
  const iphone =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

  it('answers exactly as deviceFromUserAgent, for known, absent and oversized User-Agents', () => {
    const facts = memoizedDeviceFacts(2);
    for (const ua of [firefox, iphone, firefox, undefined, '', `Mozilla/5.0 (${'x; '.repeat(3500)})`, iphone])
      assert.deepEqual(facts(ua), deviceFromUserAgent(ua));
  });

  it('hands out copies: changing one answer changes no later one', () => {
    const facts = memoizedDeviceFacts();
    const first = facts(firefox);
    first.browserType = 'changed';
    assert.equal(facts(firefox).browserType, 'Firefox');
  });
});
