export function renderCart(items) {
  return items.map((i) => `<li>${i}</li>`.join('');
}
