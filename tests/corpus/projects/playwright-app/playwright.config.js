// Debian's chromium instead of a downloaded browser build; the page is a local file.
const { defineConfig } = require('@playwright/test');

module.exports = defineConfig({
  testDir: '.',
  testMatch: ['tests/**/*.spec.js', 'tests-pass/**/*.spec.js', 'tests-long/**/*.spec.js'],
  workers: 1,
  retries: 0,
  timeout: 5000,
  expect: { timeout: 1000 },
  reporter: process.env.PW_REPORTER || 'list',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: '/usr/bin/chromium' },
  },
});
