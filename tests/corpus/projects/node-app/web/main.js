import { renderCart } from './cart-view.js';
import { add } from '../src/math.js';

document.getElementById('app').textContent = renderCart([add(1, 2)]);
