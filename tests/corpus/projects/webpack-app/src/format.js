export function formatPrice(value) {
  const cents = Math.round(value * 100);
  // BUG: unbalanced parenthesis
  return `$${(cents / 100).toFixed(2)`;
}

export const currency = 'USD';
