// Runs test files in path order (Jest's default orders by past duration and failures).
const Sequencer = require('@jest/test-sequencer').default;

module.exports = class ByPathSequencer extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
};
