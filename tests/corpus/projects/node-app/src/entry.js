import { add } from './math.js';
import { Cart } from './cart.js';

const cart = new Cart();
cart.addItem('apple', 3, 2);
console.log(add(1, 2), cart.total();
