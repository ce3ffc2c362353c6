const { add, divide, mean, lastN } = require('../src/math');

describe('math', () => {
  test('adds two numbers', () => {
    expect(add(2, 3)).toBe(5);
  });

  test('divides with a fractional result', () => {
    expect(divide(7, 2)).toBe(3.5);
  });

  test('throws on division by zero', () => {
    expect(() => divide(1, 0)).toThrow(RangeError);
  });

  test('mean of empty list is NaN', () => {
    expect(mean([])).toBeNaN();
  });

  test('lastN returns the last n values', () => {
    expect(lastN([1, 2, 3, 4, 5], 2)).toEqual([4, 5]);
  });
});
