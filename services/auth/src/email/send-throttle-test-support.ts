import { MemoryKeyValueStore } from '@sesame/kv';
import { SendThrottle } from './send-throttle';

/** A SendThrottle with `limits` over an in-memory store whose clock starts at 0 and moves by `at(ms)`. */
export function throttleOnTestClock(limits: ConstructorParameters<typeof SendThrottle>[1]) {
  let now = 0;
  const clock = () => now;
  const throttle = new SendThrottle(new MemoryKeyValueStore(clock), limits, clock);
  return {
    throttle,
    at(ms: number) {
      now = ms;
    },
  };
}
