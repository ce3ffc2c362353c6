import { describe, it, expect } from 'vitest';
import { add, divide, lastN } from '../src/math.js';
import { Cart } from '../src/cart.js';

describe('math', () => {
  it('adds', () => {
    expect(add(2, 2)).toBe(4);
  });

  it('divides with a fractional result', () => {
    expect(divide(9, 4)).toBe(2.25);
  });

  it('lastN returns the tail', () => {
    expect(lastN(['a', 'b', 'c'], 1)).toEqual(['c']);
  });
});

describe('cart', () => {
  it('applies a percentage discount', () => {
    const cart = new Cart();
    cart.addItem('book', 40);
    expect(cart.totalWithDiscount(25)).toBe(30);
  });

  it('builds a summary', () => {
    const cart = new Cart();
    cart.addItem('b', 1);
    cart.addItem('a', 2);
    expect(cart.summary()).toMatchObject({ count: 2, names: ['a', 'b'] });
  });
});
