import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { type RandomInt, checkPick, newNumberMatch } from './number-match';

/** Plays back fixed draws, and remembers every range asked for. */
function scripted(draws: number[]): RandomInt & { asked: [number, number][] } {
  const asked: [number, number][] = [];
  const fn = ((min: number, max: number) => {
    asked.push([min, max]);
    const next = draws.shift();
    if (next === undefined) throw new Error('no more draws');
    return next;
  }) as RandomInt & { asked: [number, number][] };
  fn.asked = asked;
  return fn;
}

describe('number matching', () => {
  it('draws the code and two distinct decoys from 10–99, redrawing a repeated number, and shuffles them', () => {
    // 47 (code), 47 again (redrawn), 12, 85; then the shuffle's swaps: i=2 ↔ 0, i=1 ↔ 1.
    const random = scripted([47, 47, 12, 85, 0, 1]);
    const match = newNumberMatch(random);
    assert.equal(match.code, '47');
    assert.deepEqual(match.choices, ['85', '12', '47']);
    assert.deepEqual(random.asked, [
      [10, 100],
      [10, 100],
      [10, 100],
      [10, 100],
      [0, 3],
      [0, 2],
    ]);
  });

  it('with crypto randomness: always three distinct two-digit numbers, the code among them, in every position', () => {
    const positions = new Set<number>();
    for (let n = 0; n < 300; n++) {
      const { code, choices } = newNumberMatch();
      assert.equal(choices.length, 3);
      assert.equal(new Set(choices).size, 3);
      for (const choice of choices) assert.match(choice, /^[1-9]\d$/);
      assert.ok(choices.includes(code));
      positions.add(choices.indexOf(code));
    }
    assert.deepEqual([...positions].sort(), [0, 1, 2], 'the code is not always in the same place');
  });

  it('checks a pick: the code is right, another choice is wrong, anything else is invalid', () => {
    const match = { code: '47', choices: ['85', '47', '12'] };
    assert.equal(checkPick(match, '47'), 'right');
    assert.equal(checkPick(match, '85'), 'wrong');
    assert.equal(checkPick(match, '12'), 'wrong');
    for (const bad of [undefined, '', '46', ' 47', '047', 47, ['47'], { choice: '47' }]) {
      assert.equal(checkPick(match, bad), 'invalid', JSON.stringify(bad));
    }
  });
});
