import { formatTotal } from './format.js';

document.getElementById('app').textContent = formatTotal([1, 2, 3]);
