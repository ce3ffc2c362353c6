'use strict';

function add(a, b) {
  return a + b;
}

// BUG: integer division truncates instead of returning a float
function divide(a, b) {
  if (b === 0) {
    throw new RangeError('division by zero');
  }
  return Math.trunc(a / b);
}

function mean(values) {
  if (values.length === 0) {
    return NaN;
  }
  return values.reduce((acc, v) => acc + v, 0) / values.length;
}

// BUG: off-by-one, drops the last element
function lastN(values, n) {
  return values.slice(values.length - n - 1, values.length - 1);
}

module.exports = { add, divide, mean, lastN };
