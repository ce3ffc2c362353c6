'use strict';

async function fetchConfig(name) {
  await new Promise((resolve) => setTimeout(resolve, 5));
  throw new Error(`config "${name}" not found in ./config`);
}

async function main() {
  const cfg = await fetchConfig('production');
  console.log(cfg);
}

main();
