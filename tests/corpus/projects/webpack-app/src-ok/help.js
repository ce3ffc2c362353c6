const TEXT = [
  'Click an item to change its quantity.',
  'Press Delete to remove the selected item.',
  'Totals update as you type.',
];

export function showHelp(root) {
  const p = document.createElement('p');
  p.textContent = TEXT.join(' ');
  root.appendChild(p);
}
