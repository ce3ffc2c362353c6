const path = require('path');
const { test, expect } = require('@playwright/test');

const PAGE = 'file://' + path.resolve(__dirname, '../site/index.html');

test.describe('inventory page', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto(PAGE);
  });

  test('has the inventory title', async ({ page }) => {
    await expect(page).toHaveTitle('Inventory');
  });

  test('has a heading', async ({ page }) => {
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inventory');
  });

  test('lists three items', async ({ page }) => {
    await expect(page.locator('#items li')).toHaveCount(3);
  });

  test('cherry has twelve', async ({ page }) => {
    await expect(page.locator('li[data-sku="C3"] .qty')).toHaveText('12');
  });

  test('adding an item appends it', async ({ page }) => {
    await page.getByLabel('Item name').fill('fig');
    await page.getByRole('button', { name: 'Add' }).click();
    await expect(page.locator('#items li')).toHaveCount(4);
  });
});
