const assert = require('assert');
const { add } = require('../src/math');

describe('add', function () {
  it('adds small numbers', function () {
    assert.strictEqual(add(1, 2), 3);
  });
  it('adds negatives', function () {
    assert.strictEqual(add(-1, -2), -3);
  });
});
