const test = require('node:test');
const assert = require('node:assert');
const { add, divide, lastN } = require('../src/math');
const { parseUser } = require('../src/user');

test('add', () => {
  assert.strictEqual(add(2, 3), 5);
});

test('divide returns fractions', () => {
  assert.strictEqual(divide(1, 4), 0.25);
});

test('lastN', () => {
  assert.deepStrictEqual(lastN([1, 2, 3], 2), [2, 3]);
});

test('parseUser lowercases email', () => {
  assert.strictEqual(parseUser('{"id":1,"profile":{"name":"A","email":"A@B.C"}}').email, 'a@b.c');
});

test('parseUser without profile', () => {
  parseUser('{"id":2}');
});

test.describe('nested suite', () => {
  test.it('passes', () => {
    assert.ok(true);
  });
  test.it('fails with a message', () => {
    assert.equal(1 + 1, 3, 'arithmetic is broken');
  });
});
