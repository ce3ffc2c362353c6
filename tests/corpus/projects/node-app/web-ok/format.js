export function formatTotal(values) {
  const sum = values.reduce((a, b) => a + b, 0);
  return `sum=${sum} mean=${sum / values.length}`;
}
