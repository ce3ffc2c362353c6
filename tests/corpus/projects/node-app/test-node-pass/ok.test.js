const test = require('node:test');
const assert = require('node:assert');
const { add, mean } = require('../src/math');

test('add', () => {
  assert.strictEqual(add(2, 3), 5);
});

test('mean', () => {
  assert.strictEqual(mean([1, 2, 3]), 2);
});
