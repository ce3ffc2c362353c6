import { it, expect } from 'vitest';
import { add } from '../src/math.js';

it('adds', () => {
  expect(add(40, 2)).toBe(42);
});
