const { Cart } = require('../src/cart');

describe('Cart', () => {
  let cart;
  beforeEach(() => {
    cart = new Cart();
    cart.addItem('pear', 2, 3);
    cart.addItem('apple', 5);
  });

  test('counts items', () => {
    expect(cart.items).toHaveLength(2);
  });

  test('total takes quantity into account', () => {
    expect(cart.total()).toBe(11);
  });

  test('summary lists sorted names', () => {
    expect(cart.summary()).toEqual({
      count: 2,
      names: ['apple', 'pear'],
      total: 11,
    });
  });

  test('rejects negative prices', () => {
    expect(() => cart.addItem('bad', -1)).toThrow('negative price for bad');
  });
});
