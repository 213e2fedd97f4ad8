// Jest's node environment, plus one fix: values that Node's own APIs create for a test belong to the test's
// realm, as they do under plain Node.
//
// Jest runs each test file in a vm context with its own Object, Array and JSON, while `fetch` and
// `structuredClone` are Node's and build their results from the outer realm's intrinsics. node:assert's
// deepStrictEqual compares prototypes, so `assert.deepEqual((await res.json()).ids, ['a'])` fails with
// "no visual difference" (jestjs/jest#2549). The suite asserts with node:assert/strict, exactly as before
// the move to Jest, so the two sources of outer-realm values the suite meets are rebuilt here from the
// test realm's intrinsics: a response body parsed by `res.json()` and a `structuredClone` result.
const { TestEnvironment } = require('jest-environment-node');
const vm = require('node:vm');

// Compiled inside the test's context, so every object and array it makes has that realm's prototypes.
// Binary data stays as Node made it: Jest already shares ArrayBuffer and Uint8Array with the outer realm.
const REALM_COPY = `(function realmCopy(value, seen = new Map()) {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value;
  const tag = Object.prototype.toString.call(value);
  let out;
  if (Array.isArray(value)) {
    out = new Array(value.length);
    seen.set(value, out);
    for (let i = 0; i < value.length; i++) if (i in value) out[i] = realmCopy(value[i], seen);
    return out;
  }
  if (tag === '[object Date]') return new Date(value.getTime());
  if (tag === '[object RegExp]') return new RegExp(value.source, value.flags);
  if (tag === '[object Map]') {
    out = new Map();
    seen.set(value, out);
    for (const [k, v] of value) out.set(realmCopy(k, seen), realmCopy(v, seen));
    return out;
  }
  if (tag === '[object Set]') {
    out = new Set();
    seen.set(value, out);
    for (const v of value) out.add(realmCopy(v, seen));
    return out;
  }
  if (tag === '[object Error]') return value;
  out = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  seen.set(value, out);
  for (const key of Object.keys(value)) out[key] = realmCopy(value[key], seen);
  return out;
})`;

class SesameNodeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const realm = this.getVmContext();
    const realmCopy = vm.runInContext(REALM_COPY, realm);
    const realmJson = vm.runInContext('JSON', realm);
    const nodeFetch = globalThis.fetch;
    const nodeStructuredClone = globalThis.structuredClone;
    this.global.structuredClone = (value, options) => realmCopy(nodeStructuredClone(value, options));
    this.global.fetch = async (...args) => {
      const res = await nodeFetch(...args);
      // Same errors as Response#json (a used body, invalid JSON), parsed by the test realm's JSON.
      Object.defineProperty(res, 'json', { value: async () => realmJson.parse(await res.text()) });
      return res;
    };
  }
}

module.exports = SesameNodeEnvironment;
