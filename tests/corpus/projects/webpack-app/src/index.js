import { total } from './cart';
import { formatPrice } from './format';
import { debounce } from 'lodash-es';
import { track } from './analytics/tracker';

const items = [{ price: 3.5, qty: 2 }, { price: 1.25, qty: 4 }];
document.body.textContent = formatPrice(total(items));
window.addEventListener('resize', debounce(() => track('resize'), 200));
