export function formatPrice(value) {
  return `$${value.toFixed(2)}`;
}

export function formatCount(n) {
  return n === 1 ? 'one' : String(n);
}
