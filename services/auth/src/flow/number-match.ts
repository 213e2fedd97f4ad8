import { randomInt } from 'node:crypto';

/**
 * Number matching for a sign-in confirmed on another device (a magic link opened in another browser, the QR's
 * phone side): the device that started the flow shows `code`, the approving page shows the three `choices`
 * (the code and two distinct decoys, in random order) and the person picks the one on the other screen. Both
 * are drawn once, on the server, with crypto randomness and kept with the flow, so showing the approving page
 * again shows the same three numbers (a fresh set would give the code away as the one that stays).
 */
export interface NumberMatch {
  /** Two digits, 10 to 99 (no leading zero to misread). */
  code: string;
  /** Three distinct two-digit numbers, the code among them, shuffled. */
  choices: string[];
}

/** A random whole number from `min` (inclusive) to `max` (exclusive): node:crypto's randomInt by default. */
export type RandomInt = (min: number, max: number) => number;

export function newNumberMatch(random: RandomInt = randomInt): NumberMatch {
  const drawn = new Set<number>();
  while (drawn.size < 3) drawn.add(random(10, 100));
  const [code] = drawn;
  const choices = [...drawn];
  // Fisher–Yates: the code's place among the three is as random as the numbers.
  for (let i = choices.length - 1; i > 0; i--) {
    const j = random(0, i + 1);
    [choices[i], choices[j]] = [choices[j]!, choices[i]!];
  }
  return { code: String(code), choices: choices.map(String) };
}

/**
 * The person's pick: `right`, `wrong` (one of the three, not the code), or `invalid` (not one of the three
 * choices: a forged or broken form, told apart so it is answered as bad input, not as a wrong pick).
 */
export function checkPick(match: NumberMatch, picked: unknown): 'right' | 'wrong' | 'invalid' {
  if (typeof picked !== 'string' || !match.choices.includes(picked)) return 'invalid';
  return picked === match.code ? 'right' : 'wrong';
}

/** What an activity record says about a wrong pick (errorCode auth_failure, status failure). */
export const NUMBER_MISMATCH_REASON =
  'number_mismatch: the number picked on the approving device was not the one shown on the device that started the sign-in';

/** The redirect error the device that started the flow ends with after a wrong pick (OAuth access_denied). */
export const NUMBER_MISMATCH_ENDING = {
  error: 'access_denied',
  description: 'the number picked on the other device did not match',
} as const;
