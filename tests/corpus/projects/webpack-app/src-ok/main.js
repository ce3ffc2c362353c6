import { total, count } from './cart';
import { formatPrice, formatCount } from './format';
import { render } from './view';

const items = [
  { name: 'apple', price: 0.5, qty: 6 },
  { name: 'bread', price: 2.25, qty: 1 },
  { name: 'cheese', price: 7.8, qty: 1 },
];

render(document.body, [
  `${formatCount(count(items))} items`,
  `Total ${formatPrice(total(items))}`,
]);

import(/* webpackChunkName: "help" */ './help').then(({ showHelp }) => showHelp(document.body));
import(/* webpackChunkName: "charts" */ './charts').then(({ drawChart }) => drawChart(items));
