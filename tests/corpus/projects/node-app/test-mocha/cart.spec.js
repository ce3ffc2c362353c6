const assert = require('assert');
const { Cart } = require('../src/cart');
const { divide, mean } = require('../src/math');

describe('Cart (mocha)', function () {
  it('totals quantities', function () {
    const cart = new Cart();
    cart.addItem('pen', 1.5, 4);
    assert.strictEqual(cart.total(), 6);
  });

  it('summary is deep-equal', function () {
    const cart = new Cart();
    cart.addItem('z', 1);
    cart.addItem('y', 1);
    assert.deepStrictEqual(cart.summary(), { count: 2, names: ['y', 'z'], total: 3 });
  });

  it('counts items', function () {
    const cart = new Cart();
    cart.addItem('x', 1);
    assert.strictEqual(cart.items.length, 1);
  });
});

describe('math (mocha)', function () {
  it('divides', function () {
    assert.strictEqual(divide(5, 2), 2.5);
  });

  it('mean', function () {
    assert.strictEqual(mean([2, 4]), 3);
  });
});
