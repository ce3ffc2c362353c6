const { add, mean } = require('../src/math');

test('adds', () => {
  expect(add(1, 1)).toBe(2);
});

test('mean', () => {
  expect(mean([1, 2, 3])).toBe(2);
});
